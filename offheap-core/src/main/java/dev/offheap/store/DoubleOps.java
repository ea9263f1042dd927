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
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * The whole-array operations of {@link DoubleArray}: loops over segments, run piece by piece on the current
 * {@link Workers} ({@link Sweeps}). Sums and dot products add each piece's elements into eight running sums
 * (element {@code i} of a piece into sum {@code i % 8}), add the eight pairwise, then add the pieces' results in
 * index order: the same order on any workers and any layout, closer to the exact sum than one running sum.
 */
final class DoubleOps {
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE;

    private DoubleOps() {
    }

    static double sum(DoubleArray a) {
        return sumOfPieces(a, null, "sum");
    }

    static double dot(DoubleArray a, DoubleArray b) {
        return sumOfPieces(a, b, "take the dot product of");
    }

    private static double sumOfPieces(DoubleArray a, DoubleArray b, String operation) {
        double total = 0;
        for (double sum : pieceSums(a, b, operation)) {
            total += sum;
        }
        return total;
    }

    /** Each piece's sum (of products, with {@code b}), in eight lanes added pairwise. */
    private static double[] pieceSums(DoubleArray a, DoubleArray b, String operation) {
        double[] sums = new double[Sweeps.pieces(a)];
        Sweeps.eachPiece(a, b, operation, false, (piece, from, to) -> {
            double[] lanes = new double[8];
            if (b == null) {
                Runs.over(a, from, to, (s, first, count) -> addInto(lanes, s, first, count));
            } else {
                Runs.over(a, b, from, to, (s, sFirst, t, tFirst, count) -> addProductsInto(lanes, s, sFirst, t, tFirst, count));
            }
            sums[piece] = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
        });
        return sums;
    }

    private static void addInto(double[] lanes, MemorySegment s, long first, long count) {
        double l0 = lanes[0], l1 = lanes[1], l2 = lanes[2], l3 = lanes[3];
        double l4 = lanes[4], l5 = lanes[5], l6 = lanes[6], l7 = lanes[7];
        long i = first;
        for (long end = first + (count & ~7L); i < end; i += 8) {
            l0 += s.getAtIndex(D, i);
            l1 += s.getAtIndex(D, i + 1);
            l2 += s.getAtIndex(D, i + 2);
            l3 += s.getAtIndex(D, i + 3);
            l4 += s.getAtIndex(D, i + 4);
            l5 += s.getAtIndex(D, i + 5);
            l6 += s.getAtIndex(D, i + 6);
            l7 += s.getAtIndex(D, i + 7);
        }
        lanes[0] = l0; lanes[1] = l1; lanes[2] = l2; lanes[3] = l3;
        lanes[4] = l4; lanes[5] = l5; lanes[6] = l6; lanes[7] = l7;
        for (int lane = 0; i < first + count; i++, lane++) {
            lanes[lane] += s.getAtIndex(D, i);
        }
    }

    private static void addProductsInto(double[] lanes, MemorySegment s, long sFirst, MemorySegment t, long tFirst,
            long count) {
        double l0 = lanes[0], l1 = lanes[1], l2 = lanes[2], l3 = lanes[3];
        double l4 = lanes[4], l5 = lanes[5], l6 = lanes[6], l7 = lanes[7];
        long i = 0;
        for (long end = count & ~7L; i < end; i += 8) {
            l0 += s.getAtIndex(D, sFirst + i) * t.getAtIndex(D, tFirst + i);
            l1 += s.getAtIndex(D, sFirst + i + 1) * t.getAtIndex(D, tFirst + i + 1);
            l2 += s.getAtIndex(D, sFirst + i + 2) * t.getAtIndex(D, tFirst + i + 2);
            l3 += s.getAtIndex(D, sFirst + i + 3) * t.getAtIndex(D, tFirst + i + 3);
            l4 += s.getAtIndex(D, sFirst + i + 4) * t.getAtIndex(D, tFirst + i + 4);
            l5 += s.getAtIndex(D, sFirst + i + 5) * t.getAtIndex(D, tFirst + i + 5);
            l6 += s.getAtIndex(D, sFirst + i + 6) * t.getAtIndex(D, tFirst + i + 6);
            l7 += s.getAtIndex(D, sFirst + i + 7) * t.getAtIndex(D, tFirst + i + 7);
        }
        lanes[0] = l0; lanes[1] = l1; lanes[2] = l2; lanes[3] = l3;
        lanes[4] = l4; lanes[5] = l5; lanes[6] = l6; lanes[7] = l7;
        for (int lane = 0; i < count; i++, lane++) {
            lanes[lane] += s.getAtIndex(D, sFirst + i) * t.getAtIndex(D, tFirst + i);
        }
    }

    /** The least or greatest element, as {@link Math#min} and {@link Math#max} see them: NaN wins, -0.0 < 0.0. */
    static double extreme(DoubleArray a, boolean least) {
        String operation = least ? "find the least element of" : "find the greatest element of";
        a.checkAlive(operation);
        if (a.length == 0) {
            throw new NoSuchElementException("cannot " + operation + " " + a.describe() + ": it is empty");
        }
        double[] found = new double[Sweeps.pieces(a)];
        Sweeps.eachPiece(a, null, operation, false, (piece, from, to) -> {
            found[piece] = least ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
            Runs.over(a, from, to, (s, first, count) ->
                    found[piece] = least ? least(s, first, count, found[piece]) : greatest(s, first, count, found[piece]));
        });
        double result = found[0];
        for (double m : found) {
            result = least ? Math.min(result, m) : Math.max(result, m);
        }
        return result;
    }

    /** The least of {@code m} and the run's elements: four chains of {@code Math.min}, not one (its latency). */
    private static double least(MemorySegment s, long first, long count, double m) {
        double m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.min(m0, s.getAtIndex(D, i));
            m1 = Math.min(m1, s.getAtIndex(D, i + 1));
            m2 = Math.min(m2, s.getAtIndex(D, i + 2));
            m3 = Math.min(m3, s.getAtIndex(D, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.min(m0, s.getAtIndex(D, i));
        }
        return Math.min(Math.min(m0, m1), Math.min(m2, m3));
    }

    /** The greatest of {@code m} and the run's elements, as {@link #least}. */
    private static double greatest(MemorySegment s, long first, long count, double m) {
        double m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.max(m0, s.getAtIndex(D, i));
            m1 = Math.max(m1, s.getAtIndex(D, i + 1));
            m2 = Math.max(m2, s.getAtIndex(D, i + 2));
            m3 = Math.max(m3, s.getAtIndex(D, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.max(m0, s.getAtIndex(D, i));
        }
        return Math.max(Math.max(m0, m1), Math.max(m2, m3));
    }

    static void mix(DoubleArray d, double x, DoubleArray a, double y, DoubleArray b) {
        Sweeps.from(d, a, b, "mix into", (t, tf, s, sf, u, uf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(D, tf + i, x * s.getAtIndex(D, sf + i) + y * u.getAtIndex(D, uf + i));
            }
        });
    }

    static void add(DoubleArray d, DoubleArray a) {
        Sweeps.from(d, a, "add into", (t, tf, s, sf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(D, tf + i, t.getAtIndex(D, tf + i) + s.getAtIndex(D, sf + i));
            }
        });
    }

    static void scale(DoubleArray d, double factor) {
        Sweeps.inPlace(d, "scale", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(D, i, s.getAtIndex(D, i) * factor);
            }
        });
    }

    static void clamp(DoubleArray d, double min, double max) {
        if (!(min <= max)) {
            throw new IllegalArgumentException("cannot clamp to [" + min + ", " + max + "]: the bounds must be numbers,"
                    + " the first not above the second");
        }
        Sweeps.inPlace(d, "clamp", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(D, i, Math.max(min, Math.min(max, s.getAtIndex(D, i))));
            }
        });
    }

    private static final LoopCopies<DoubleUnaryOperator, Runs.Two> UNARY =
            new LoopCopies<>(DoubleUnaryLoop.class, DoubleUnaryOperator.class, DoubleUnaryLoop::new);
    private static final LoopCopies<DoubleBinaryOperator, Runs.Three> BINARY =
            new LoopCopies<>(DoubleBinaryLoop.class, DoubleBinaryOperator.class, DoubleBinaryLoop::new);

    static void apply(DoubleArray d, DoubleArray a, DoubleUnaryOperator f) {
        Sweeps.from(d, a, "apply a function into", UNARY.loopFor(f));
    }

    static void apply(DoubleArray d, DoubleArray a, DoubleArray b, DoubleBinaryOperator f) {
        Sweeps.from(d, a, b, "apply a function into", BINARY.loopFor(f));
    }

    static void fill(DoubleArray d, long from, long to, double value) {
        Sweeps.inPlace(d, "fill", from, to, (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(D, i, value);
            }
        });
    }

    /**
     * Replaces each element with the sum of it and those before it: each piece summed as {@link #sum} sums it (on
     * every worker), the sums of the pieces before each one added in index order, then each piece's running sum
     * from there: not always the rounding of one running sum over the array.
     */
    static void prefixSum(DoubleArray d) {
        String operation = "take the prefix sums of";
        double[] sums = pieceSums(d, null, operation);
        double[] before = new double[sums.length];
        for (int piece = 1; piece < sums.length; piece++) {
            before[piece] = before[piece - 1] + sums[piece - 1];
        }
        Sweeps.eachPiece(d, null, operation, true, (piece, from, to) -> Runs.over(d, from, to, (s, first, count) -> {
            double running = before[piece];
            for (long i = first, end = first + count; i < end; i++) {
                running += s.getAtIndex(D, i);
                s.setAtIndex(D, i, running);
            }
            before[piece] = running;
        }));
    }

    /** {@link java.util.Arrays#binarySearch(double[], double)}'s search and order, over a long index. */
    static long binarySearch(DoubleArray a, double key) {
        long low = 0;
        a.checkAlive("search");
        long high = a.length - 1;
        long keyBits = Double.doubleToLongBits(key);
        while (low <= high) {
            long mid = (low + high) >>> 1;
            double value = a.get(mid);
            long bits = Double.doubleToLongBits(value);
            if (value < key) {
                low = mid + 1;
            } else if (value > key) {
                high = mid - 1;
            } else if (bits == keyBits) { // equal or unordered: the order of the bits, -0.0 < 0.0 < NaN
                return mid;
            } else if (bits < keyBits) {
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return -(low + 1);
    }
}
