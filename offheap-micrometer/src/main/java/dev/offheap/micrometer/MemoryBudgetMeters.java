/*
 * Copyright 2026 the offheap authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

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

    /**
     * Meters for {@code budget}, with only the {@code type} and {@code name} tags.
     *
     * @param budget the budget to read
     * @throws NullPointerException if {@code budget} is null
     */
    public MemoryBudgetMeters(MemoryBudget budget) {
        this(budget, Tags.empty());
    }

    /**
     * Meters for {@code budget}, with {@code tags} added to the {@code type} and {@code name} tags.
     *
     * @param budget the budget to read
     * @param tags more tags for every meter, e.g. the application's
     * @throws NullPointerException if an argument is null
     */
    public MemoryBudgetMeters(MemoryBudget budget, Iterable<Tag> tags) {
        this.budget = Objects.requireNonNull(budget, "budget");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    /**
     * Registers the meters in {@code registry}; each reads the budget's figures when the registry asks for it.
     *
     * @param registry where the meters go
     * @throws NullPointerException if {@code registry} is null
     */
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
