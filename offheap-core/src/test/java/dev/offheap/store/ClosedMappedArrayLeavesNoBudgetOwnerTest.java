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
