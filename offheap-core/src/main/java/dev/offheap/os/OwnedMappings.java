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

package dev.offheap.os;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The addresses of the native memory offheap holds from the OS, by owner (a pool), so that a reader can
 * count the pages resident in them exactly: {@code offheap inspect} reads them through each pool's MBean
 * ({@code AddressRanges}) and adds up the resident pages of {@code /proc/PID/smaps} and
 * {@code /proc/PID/pagemap} inside them, never what was merely reserved.
 *
 * <p>It changes only where memory is mapped, moved or unmapped (a slab, a chunk, an array's address
 * range), never per acquire or release. Every {@code munmap} and {@code mremap} of this package removes the
 * addresses it gives up, whoever added them, so an address the kernel hands to someone else later is never
 * still counted as offheap's.
 */
public final class OwnedMappings {
    private static final TreeMap<Long, Entry> RANGES = new TreeMap<>();

    private record Entry(long end, Owner owner) {}

    private OwnedMappings() {}

    /** Whoever holds ranges: a pool; its name only describes it, two owners may share a name. */
    public static final class Owner {
        /** Memory taken without an owner (tests, one-off regions). */
        public static final Owner UNNAMED = new Owner("unnamed");

        private final String name;

        private Owner(String name) {
            this.name = name;
        }

        /** A new owner, distinct from every other. */
        public static Owner named(String name) {
            return new Owner(name);
        }

        public String name() {
            return name;
        }

        /** {@code what} of this owner, for messages: {@code "movable memory of pool 'samples'"}. */
        String describe(String what) {
            return this == UNNAMED ? what : what + " of pool '" + name + "'";
        }

        /**
         * The owner's ranges now, as pairs {@code [start0, end0, start1, end1, ...]} in address order, ends
         * exclusive. Reserved addresses are included: a reader counts their resident pages, not their size.
         */
        public long[] ranges() {
            return OwnedMappings.ranges(this);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Records {@code [start, start + length)} as held by {@code owner}, replacing any earlier record there. */
    static void add(long start, long length, Owner owner) {
        synchronized (RANGES) {
            cut(start, start + length);
            RANGES.put(start, new Entry(start + length, owner));
        }
    }

    /** Forgets whatever was recorded in {@code [start, start + length)}; the rest of a range stays. */
    static void remove(long start, long length) {
        synchronized (RANGES) {
            cut(start, start + length);
        }
    }

    /** The owner of the byte at {@code address}, or null. */
    static Owner ownerOf(long address) {
        synchronized (RANGES) {
            Map.Entry<Long, Entry> e = RANGES.floorEntry(address);
            return e == null || e.getValue().end() <= address ? null : e.getValue().owner();
        }
    }

    private static long[] ranges(Owner owner) {
        List<long[]> mine = new ArrayList<>();
        synchronized (RANGES) {
            for (Map.Entry<Long, Entry> e : RANGES.entrySet()) {
                if (e.getValue().owner() == owner) {
                    mine.add(new long[] {e.getKey(), e.getValue().end()});
                }
            }
        }
        long[] pairs = new long[mine.size() * 2];
        for (int i = 0; i < mine.size(); i++) {
            pairs[2 * i] = mine.get(i)[0];
            pairs[2 * i + 1] = mine.get(i)[1];
        }
        return pairs;
    }

    /** Removes {@code [start, end)} from every record, keeping the parts of records outside it. */
    private static void cut(long start, long end) {
        Map.Entry<Long, Entry> before = RANGES.lowerEntry(start);
        if (before != null && before.getValue().end() > start) {
            Entry e = before.getValue();
            RANGES.put(before.getKey(), new Entry(start, e.owner()));
            if (e.end() > end) {
                RANGES.put(end, new Entry(e.end(), e.owner()));
            }
        }
        Map.Entry<Long, Entry> inside;
        while ((inside = RANGES.ceilingEntry(start)) != null && inside.getKey() < end) {
            Entry e = RANGES.remove(inside.getKey());
            if (e.end() > end) {
                RANGES.put(end, new Entry(e.end(), e.owner()));
            }
        }
    }
}
