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

package dev.offheap.metrics.jmx;

import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.MemoryBudgetMXBean;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Budgets in JMX, counted by use: a budget (and each ancestor) is registered when the first registered pool
 * charging it is built and unregistered when the last one closes.
 */
final class BudgetBeans {
    private static final String TYPE = "MemoryBudget";

    /** Guarded by {@code BudgetBeans.class}. */
    private static final Map<MemoryBudget, Use> USES = new IdentityHashMap<>();

    private BudgetBeans() {}

    /** Shows {@code budget} and its ancestors until the returned registration is closed. */
    static Registration use(MemoryBudget budget) {
        List<MemoryBudget> levels = new ArrayList<>();
        for (MemoryBudget b = budget; b != null; b = b.parent().orElse(null)) {
            levels.add(b);
        }
        synchronized (BudgetBeans.class) {
            for (MemoryBudget level : levels) {
                USES.computeIfAbsent(level, BudgetBeans::register).count++;
            }
        }
        return new Registration(null, () -> release(levels));
    }

    private static void release(List<MemoryBudget> levels) {
        synchronized (BudgetBeans.class) {
            for (MemoryBudget level : levels) {
                Use use = USES.get(level);
                if (--use.count == 0) {
                    USES.remove(level);
                    if (use.name != null) {
                        Jmx.unregister(use.name);
                    }
                }
            }
        }
    }

    private static Use register(MemoryBudget budget) {
        StandardMBean mbean = new StandardMBean(new BudgetView(budget), MemoryBudgetMXBean.class, true);
        return new Use(Jmx.registerUnique(TYPE, budget.path(), mbean));
    }

    private static final class Use {
        /** Null if registration failed (logged): the count still pairs uses with releases. */
        final ObjectName name;
        int count;

        Use(ObjectName name) {
            this.name = name;
        }
    }

    private record BudgetView(MemoryBudget budget) implements MemoryBudgetMXBean {
        @Override
        public String getPath() {
            return budget.path();
        }

        @Override
        public long getUsedBytes() {
            return budget.used();
        }

        @Override
        public long getPeakBytes() {
            return budget.peak();
        }

        @Override
        public long getLimitBytes() {
            return budget.limit();
        }

        @Override
        public long getAvailableBytes() {
            return budget.available();
        }
    }
}
