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

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many memory mappings the stores may hold. One budget holds for the whole JVM ({@link #JVM}): half of
 * Linux's {@code vm.max_map_count} (65,530 by default), the other half is left to the JVM, whose threads, heap
 * and libraries need their own. Every mapped array's views count in it directly; every pool's chunks and arrays
 * count in a budget of the pool's own, within the JVM's (and within a lower limit of its own, in tests), so a
 * mapping is taken from both or from neither.
 */
class MappingBudget {
    /** The mappings every pool and mapped array of this JVM hold together. */
    static final MappingBudget JVM = new MappingBudget("offheap (every pool and mapped array of this JVM together)",
            "release arrays and views no longer needed, use larger chunks, or raise vm.max_map_count",
            MapCount.limitForStores());

    private final AtomicLong used = new AtomicLong();
    private final long limit;
    private final String holder;
    private final String advice;
    /** The budget this one's mappings count in too, or null. */
    private final MappingBudget parent;

    /** A pool's mappings: at most {@code limit}, and within {@code parent}. */
    MappingBudget(String pool, long chunkSize, long limit, MappingBudget parent) {
        this("pool '" + pool + "'", "use chunks larger than " + chunkSize + " bytes, or raise vm.max_map_count",
                limit, parent);
    }

    /**
     * A budget within no other (the JVM's, and tests'): {@code holder} names who holds the mappings in the
     * refusal, {@code advice} says what to do instead.
     */
    MappingBudget(String holder, String advice, long limit) {
        this(holder, advice, limit, null);
    }

    private MappingBudget(String holder, String advice, long limit, MappingBudget parent) {
        this.holder = holder;
        this.advice = advice;
        this.limit = limit;
        this.parent = parent;
    }

    void take(long mappings) {
        long now = used.addAndGet(mappings);
        if (now > limit) {
            used.addAndGet(-mappings);
            throw refusal(mappings, now - mappings);
        }
        if (parent != null) {
            try {
                parent.take(mappings);
            } catch (RuntimeException | Error e) {
                used.addAndGet(-mappings);
                throw e;
            }
        }
    }

    /** Throws as {@link #take} would, taking nothing: to refuse a request before it takes anything else. */
    void check(long mappings) {
        long now = used.get();
        if (mappings > limit - now) {
            throw refusal(mappings, now);
        }
        if (parent != null) {
            parent.check(mappings);
        }
    }

    private IllegalStateException refusal(long mappings, long held) {
        return new IllegalStateException(holder + " needs " + mappings + " more memory mappings but holds " + held
                + " of the " + limit + " it may use (half of vm.max_map_count, the rest is left to the JVM): "
                + advice);
    }

    void give(long mappings) {
        used.addAndGet(-mappings);
        if (parent != null) {
            parent.give(mappings);
        }
    }

    /** The mappings held in this budget (a pool's own, or the JVM's all together). */
    long used() {
        return used.get();
    }
}
