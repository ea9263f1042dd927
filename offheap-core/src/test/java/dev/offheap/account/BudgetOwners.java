package dev.offheap.account;

import java.lang.reflect.Field;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The names of a budget's owners, also those with nothing charged (which reports leave out): how a test sees
 * that a closed pool took its owner off a budget that outlives it. Reads the budget's private owner set.
 */
public final class BudgetOwners {
    private BudgetOwners() {
    }

    @SuppressWarnings("unchecked")
    public static Set<String> names(MemoryBudget budget) {
        try {
            Field field = MemoryBudget.class.getDeclaredField("owners");
            field.setAccessible(true);
            return ((Set<BudgetOwner>) field.get(budget)).stream().map(BudgetOwner::name).collect(Collectors.toSet());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("MemoryBudget has no owner set to read", e);
        }
    }
}
