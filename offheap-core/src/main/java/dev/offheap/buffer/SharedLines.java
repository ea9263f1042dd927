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

package dev.offheap.buffer;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Counts atomic operations (compare-and-set attempts, lock and monitor entries, atomic adds) on the cache
 * lines that several threads of a pool write, for the counting benchmark of BENCHMARKS.md: how many such
 * operations one lease costs, and how much of the traffic the busiest line takes. Off unless the JVM starts
 * with {@code -Ddev.offheap.buffer.countSharedLines=true}; then {@link #COUNTING} is a constant false and
 * the just-in-time compiler drops every {@code if (SharedLines.COUNTING)} block, so it costs nothing.
 */
final class SharedLines {
    static final boolean COUNTING = Boolean.getBoolean("dev.offheap.buffer.countSharedLines");

    private static final List<Line> LINES = new CopyOnWriteArrayList<>();

    private SharedLines() {}

    /**
     * One shared line: a counter when counting, else null (never touched then). The name is built only when
     * counting, so a pool's start-up does not build one per stripe for nothing.
     */
    static Line line(Supplier<String> name) {
        if (!COUNTING) {
            return null;
        }
        Line line = new Line(name.get());
        LINES.add(line);
        return line;
    }

    /** Zeroes every count (after a warm-up). */
    static void zero() {
        for (Line line : LINES) {
            line.zero();
        }
    }

    /** Forgets every line so far (between runs, so closed pools do not pile up). */
    static void forget() {
        LINES.clear();
    }

    /** The counts now of the lines known since the last forget() with a count above 0, busiest first. */
    static List<Count> snapshot() {
        List<Count> busy = new ArrayList<>();
        for (Line line : LINES) {
            long count = line.count();
            if (count > 0) {
                busy.add(new Count(line.name, count));
            }
        }
        busy.sort((a, b) -> Long.compare(b.count(), a.count()));
        return busy;
    }

    /** A line's count at one moment. */
    record Count(String name, long count) {}

    static final class Line {
        final String name;
        private final AtomicLong count = new AtomicLong();

        private Line(String name) {
            this.name = name;
        }

        void add() {
            count.incrementAndGet();
        }

        long count() {
            return count.get();
        }

        void zero() {
            count.set(0);
        }

        @Override
        public String toString() {
            return name + ": " + count();
        }
    }
}
