package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A budget forgets the owner of a mapped array once the array is closed: a long-lived budget shared by many
 * files opened and closed in turn does not keep one owner per file forever.
 */
class ClosedMappedArrayLeavesNoBudgetOwnerTest {
    @TempDir
    Path dir;

    @Test
    void theBudgetNoLongerHoldsTheOwnerOfAClosedArray() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("closed-mapped-owner");
        MappedArray array = MappedArray.create(dir.resolve("owner.npy"), ElementType.INT, 100,
                MappedArray.Options.defaults().budget(budget).jmx(false));
        array.ints().close();
        Field field = MappedArray.class.getDeclaredField("account");
        field.setAccessible(true);
        WeakReference<BudgetOwner> owner = new WeakReference<>((BudgetOwner) field.get(array));
        assertThat(owner.get()).isNotNull();
        array.close();
        array = null;
        for (int round = 0; round < 50 && owner.get() != null; round++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(owner.get()).as("the closed array's owner, still held by its budget").isNull();
        assertThat(budget.used()).isZero();
        budget.close();
    }
}
