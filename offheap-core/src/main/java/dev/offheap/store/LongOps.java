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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.NoSuchElementException;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;

/**
 * The whole-array operations of {@link LongArray}: loops over segments, run piece by piece on the current
 * {@link Workers} ({@link Sweeps}). Sums wrap around as {@code long} arithmetic does, so their order does not
 * matter.
 */
final class LongOps {
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG;

    private LongOps() {
    }

    static long sum(LongArray a, LongArray b, String operation) {
        long[] sums = new long[Sweeps.pieces(a)];
        Sweeps.eachPiece(a, b, operation, false, (piece, from, to) -> {
            if (b == null) {
                Runs.over(a, from, to, (s, first, count) -> {
                    long sum = 0;
                    for (long i = first, end = first + count; i < end; i++) {
                        sum += s.getAtIndex(L, i);
                    }
                    sums[piece] += sum;
                });
            } else {
                Runs.over(a, b, from, to, (s, sFirst, t, tFirst, count) -> {
                    long sum = 0;
                    for (long i = 0; i < count; i++) {
                        sum += s.getAtIndex(L, sFirst + i) * t.getAtIndex(L, tFirst + i);
                    }
                    sums[piece] += sum;
                });
            }
        });
        long total = 0;
        for (long sum : sums) {
            total += sum;
        }
        return total;
    }

    static long extreme(LongArray a, boolean least) {
        String operation = least ? "find the least element of" : "find the greatest element of";
        a.checkAlive(operation);
        if (a.length == 0) {
            throw new NoSuchElementException("cannot " + operation + " " + a.describe() + ": it is empty");
        }
        long[] found = new long[Sweeps.pieces(a)];
        Sweeps.eachPiece(a, null, operation, false, (piece, from, to) -> {
            found[piece] = least ? Long.MAX_VALUE : Long.MIN_VALUE;
            Runs.over(a, from, to, (s, first, count) ->
                    found[piece] = least ? least(s, first, count, found[piece]) : greatest(s, first, count, found[piece]));
        });
        long result = found[0];
        for (long m : found) {
            result = least ? Math.min(result, m) : Math.max(result, m);
        }
        return result;
    }

    /** The least of {@code m} and the run's elements: four chains of {@code Math.min}, not one (its latency). */
    private static long least(MemorySegment s, long first, long count, long m) {
        long m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.min(m0, s.getAtIndex(L, i));
            m1 = Math.min(m1, s.getAtIndex(L, i + 1));
            m2 = Math.min(m2, s.getAtIndex(L, i + 2));
            m3 = Math.min(m3, s.getAtIndex(L, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.min(m0, s.getAtIndex(L, i));
        }
        return Math.min(Math.min(m0, m1), Math.min(m2, m3));
    }

    /** The greatest of {@code m} and the run's elements, as {@link #least}. */
    private static long greatest(MemorySegment s, long first, long count, long m) {
        long m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.max(m0, s.getAtIndex(L, i));
            m1 = Math.max(m1, s.getAtIndex(L, i + 1));
            m2 = Math.max(m2, s.getAtIndex(L, i + 2));
            m3 = Math.max(m3, s.getAtIndex(L, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.max(m0, s.getAtIndex(L, i));
        }
        return Math.max(Math.max(m0, m1), Math.max(m2, m3));
    }

    static void mix(LongArray d, long x, LongArray a, long y, LongArray b) {
        Sweeps.from(d, a, b, "mix into", (t, tf, s, sf, u, uf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(L, tf + i, x * s.getAtIndex(L, sf + i) + y * u.getAtIndex(L, uf + i));
            }
        });
    }

    static void add(LongArray d, LongArray a) {
        Sweeps.from(d, a, "add into", (t, tf, s, sf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(L, tf + i, t.getAtIndex(L, tf + i) + s.getAtIndex(L, sf + i));
            }
        });
    }

    static void scale(LongArray d, long factor) {
        Sweeps.inPlace(d, "scale", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(L, i, s.getAtIndex(L, i) * factor);
            }
        });
    }

    static void clamp(LongArray d, long min, long max) {
        if (min > max) {
            throw new IllegalArgumentException("cannot clamp to [" + min + ", " + max + "]: the first bound is above"
                    + " the second");
        }
        Sweeps.inPlace(d, "clamp", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(L, i, Math.max(min, Math.min(max, s.getAtIndex(L, i))));
            }
        });
    }

    private static final LoopCopies<LongUnaryOperator, Runs.Two> UNARY =
            new LoopCopies<>(LongUnaryLoop.class, LongUnaryOperator.class, LongUnaryLoop::new);
    private static final LoopCopies<LongBinaryOperator, Runs.Three> BINARY =
            new LoopCopies<>(LongBinaryLoop.class, LongBinaryOperator.class, LongBinaryLoop::new);

    static void apply(LongArray d, LongArray a, LongUnaryOperator f) {
        Sweeps.from(d, a, "apply a function into", UNARY.loopFor(f));
    }

    static void apply(LongArray d, LongArray a, LongArray b, LongBinaryOperator f) {
        Sweeps.from(d, a, b, "apply a function into", BINARY.loopFor(f));
    }

    static void fill(LongArray d, long from, long to, long value) {
        Sweeps.inPlace(d, "fill", from, to, (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(L, i, value);
            }
        });
    }

    /** Replaces each element with the sum of it and those before it: pieces summed, then scanned from their offsets. */
    static void prefixSum(LongArray d) {
        long[] before = new long[Sweeps.pieces(d) + 1];
        Sweeps.eachPiece(d, null, "take the prefix sums of", false, (piece, from, to) -> Runs.over(d, from, to, (s, first, count) -> {
            long running = before[piece + 1];
            for (long i = first, end = first + count; i < end; i++) {
                running += s.getAtIndex(L, i);
            }
            before[piece + 1] = running;
        }));
        for (int piece = 1; piece < before.length; piece++) {
            before[piece] += before[piece - 1];
        }
        Sweeps.eachPiece(d, null, "take the prefix sums of", true, (piece, from, to) -> Runs.over(d, from, to, (s, first, count) -> {
            long running = before[piece];
            for (long i = first, end = first + count; i < end; i++) {
                running += s.getAtIndex(L, i);
                s.setAtIndex(L, i, running);
            }
            before[piece] = running;
        }));
    }

    static long binarySearch(LongArray a, long key) {
        long low = 0;
        a.checkAlive("search");
        long high = a.length - 1;
        while (low <= high) {
            long mid = (low + high) >>> 1;
            long value = a.get(mid);
            if (value < key) {
                low = mid + 1;
            } else if (value > key) {
                high = mid - 1;
            } else {
                return mid;
            }
        }
        return -(low + 1);
    }
}
