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
