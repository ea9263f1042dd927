package dev.offheap.micrometer;

import dev.offheap.account.MemoryBudget;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * A {@link MemoryBudget}'s meters: {@code offheap.budget.used}, {@code offheap.budget.peak} and, when it has
 * a limit, {@code offheap.budget.limit} (bytes), tagged {@code type=MemoryBudget} and {@code name=<path>}.
 */
public final class MemoryBudgetMeters implements MeterBinder {
    private final MemoryBudget budget;
    private final Iterable<Tag> tags;

    public MemoryBudgetMeters(MemoryBudget budget) {
        this(budget, Tags.empty());
    }

    public MemoryBudgetMeters(MemoryBudget budget, Iterable<Tag> tags) {
        this.budget = Objects.requireNonNull(budget, "budget");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        TaggedMeters<MemoryBudget> meters =
                new TaggedMeters<>(registry, budget, "MemoryBudget", budget.path(), tags);
        meters.bytes("offheap.budget.used", "Bytes charged now", MemoryBudget::used);
        meters.bytes("offheap.budget.peak", "The most bytes ever charged at once", MemoryBudget::peak);
        if (budget.limit() != MemoryBudget.UNLIMITED) {
            meters.bytes("offheap.budget.limit", "The budget's own limit", MemoryBudget::limit);
        }
    }
}
