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
 * How many memory mappings a pool's chunks and arrays (or all mapped array files) may hold: half of Linux's
 * {@code vm.max_map_count} (65,530 by default), the other half is left to the JVM, whose threads, heap and
 * libraries need their own.
 */
class MappingBudget {
    private final AtomicLong used = new AtomicLong();
    private final long limit;
    private final String holder;
    private final String advice;

    MappingBudget(String pool, long chunkSize, long limit) {
        this("pool '" + pool + "'", "use chunks larger than " + chunkSize + " bytes, or raise vm.max_map_count",
                limit);
    }

    /** {@code holder} names who holds the mappings in the refusal, {@code advice} says what to do instead. */
    MappingBudget(String holder, String advice, long limit) {
        this.holder = holder;
        this.advice = advice;
        this.limit = limit;
    }

    void take(long mappings) {
        long now = used.addAndGet(mappings);
        if (now > limit) {
            used.addAndGet(-mappings);
            throw refusal(mappings, now - mappings);
        }
    }

    /** Throws as {@link #take} would, taking nothing: to refuse a request before it takes anything else. */
    void check(long mappings) {
        long now = used.get();
        if (mappings > limit - now) {
            throw refusal(mappings, now);
        }
    }

    private IllegalStateException refusal(long mappings, long held) {
        return new IllegalStateException(holder + " needs " + mappings + " more memory mappings but holds " + held
                + " of the " + limit + " it may use (half of vm.max_map_count, the rest is left to the JVM): "
                + advice);
    }

    void give(long mappings) {
        used.addAndGet(-mappings);
    }

    long used() {
        return used.get();
    }
}
