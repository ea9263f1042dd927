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
 * The whole-array operations of {@link FloatArray}: loops over segments, run piece by piece on the current
 * {@link Workers} ({@link Sweeps}). Sums and dot products add each piece's elements into eight running sums
 * (element {@code i} of a piece into sum {@code i % 8}), add the eight pairwise, then add the pieces' results in
 * index order, all in {@code double}: the same order on any workers and any layout, closer to the exact sum
 * than one running sum. Element-wise operations compute in {@code float}, as Java does; a function of
 * elements gets and returns them as {@code double}s, its result rounded to {@code float}.
 */
final class FloatOps {
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT;

    private FloatOps() {
    }

    static double sum(FloatArray a) {
        return sumOfPieces(a, null, "sum");
    }

    static double dot(FloatArray a, FloatArray b) {
        return sumOfPieces(a, b, "take the dot product of");
    }

    private static double sumOfPieces(FloatArray a, FloatArray b, String operation) {
        double total = 0;
        for (double sum : pieceSums(a, b, operation)) {
            total += sum;
        }
        return total;
    }

    /** Each piece's sum (of products, with {@code b}), in eight lanes added pairwise. */
    private static double[] pieceSums(FloatArray a, FloatArray b, String operation) {
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
            l0 += s.getAtIndex(F, i);
            l1 += s.getAtIndex(F, i + 1);
            l2 += s.getAtIndex(F, i + 2);
            l3 += s.getAtIndex(F, i + 3);
            l4 += s.getAtIndex(F, i + 4);
            l5 += s.getAtIndex(F, i + 5);
            l6 += s.getAtIndex(F, i + 6);
            l7 += s.getAtIndex(F, i + 7);
        }
        lanes[0] = l0; lanes[1] = l1; lanes[2] = l2; lanes[3] = l3;
        lanes[4] = l4; lanes[5] = l5; lanes[6] = l6; lanes[7] = l7;
        for (int lane = 0; i < first + count; i++, lane++) {
            lanes[lane] += s.getAtIndex(F, i);
        }
    }

    private static void addProductsInto(double[] lanes, MemorySegment s, long sFirst, MemorySegment t, long tFirst,
            long count) {
        double l0 = lanes[0], l1 = lanes[1], l2 = lanes[2], l3 = lanes[3];
        double l4 = lanes[4], l5 = lanes[5], l6 = lanes[6], l7 = lanes[7];
        long i = 0;
        for (long end = count & ~7L; i < end; i += 8) {
            l0 += (double) s.getAtIndex(F, sFirst + i) * t.getAtIndex(F, tFirst + i);
            l1 += (double) s.getAtIndex(F, sFirst + i + 1) * t.getAtIndex(F, tFirst + i + 1);
            l2 += (double) s.getAtIndex(F, sFirst + i + 2) * t.getAtIndex(F, tFirst + i + 2);
            l3 += (double) s.getAtIndex(F, sFirst + i + 3) * t.getAtIndex(F, tFirst + i + 3);
            l4 += (double) s.getAtIndex(F, sFirst + i + 4) * t.getAtIndex(F, tFirst + i + 4);
            l5 += (double) s.getAtIndex(F, sFirst + i + 5) * t.getAtIndex(F, tFirst + i + 5);
            l6 += (double) s.getAtIndex(F, sFirst + i + 6) * t.getAtIndex(F, tFirst + i + 6);
            l7 += (double) s.getAtIndex(F, sFirst + i + 7) * t.getAtIndex(F, tFirst + i + 7);
        }
        lanes[0] = l0; lanes[1] = l1; lanes[2] = l2; lanes[3] = l3;
        lanes[4] = l4; lanes[5] = l5; lanes[6] = l6; lanes[7] = l7;
        for (int lane = 0; i < count; i++, lane++) {
            lanes[lane] += (double) s.getAtIndex(F, sFirst + i) * t.getAtIndex(F, tFirst + i);
        }
    }

    /** The least or greatest element, as {@link Math#min} and {@link Math#max} see them: NaN wins, -0.0 < 0.0. */
    static float extreme(FloatArray a, boolean least) {
        String operation = least ? "find the least element of" : "find the greatest element of";
        a.checkAlive(operation);
        if (a.length == 0) {
            throw new NoSuchElementException("cannot " + operation + " " + a.describe() + ": it is empty");
        }
        float[] found = new float[Sweeps.pieces(a)];
        Sweeps.eachPiece(a, null, operation, false, (piece, from, to) -> {
            found[piece] = least ? Float.POSITIVE_INFINITY : Float.NEGATIVE_INFINITY;
            Runs.over(a, from, to, (s, first, count) ->
                    found[piece] = least ? least(s, first, count, found[piece]) : greatest(s, first, count, found[piece]));
        });
        float result = found[0];
        for (float m : found) {
            result = least ? Math.min(result, m) : Math.max(result, m);
        }
        return result;
    }

    /** The least of {@code m} and the run's elements: four chains of {@code Math.min}, not one (its latency). */
    private static float least(MemorySegment s, long first, long count, float m) {
        float m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.min(m0, s.getAtIndex(F, i));
            m1 = Math.min(m1, s.getAtIndex(F, i + 1));
            m2 = Math.min(m2, s.getAtIndex(F, i + 2));
            m3 = Math.min(m3, s.getAtIndex(F, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.min(m0, s.getAtIndex(F, i));
        }
        return Math.min(Math.min(m0, m1), Math.min(m2, m3));
    }

    /** The greatest of {@code m} and the run's elements, as {@link #least}. */
    private static float greatest(MemorySegment s, long first, long count, float m) {
        float m0 = m, m1 = m, m2 = m, m3 = m;
        long i = first;
        for (long end = first + (count & ~3L); i < end; i += 4) {
            m0 = Math.max(m0, s.getAtIndex(F, i));
            m1 = Math.max(m1, s.getAtIndex(F, i + 1));
            m2 = Math.max(m2, s.getAtIndex(F, i + 2));
            m3 = Math.max(m3, s.getAtIndex(F, i + 3));
        }
        for (long end = first + count; i < end; i++) {
            m0 = Math.max(m0, s.getAtIndex(F, i));
        }
        return Math.max(Math.max(m0, m1), Math.max(m2, m3));
    }

    static void mix(FloatArray d, float x, FloatArray a, float y, FloatArray b) {
        Sweeps.from(d, a, b, "mix into", (t, tf, s, sf, u, uf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(F, tf + i, x * s.getAtIndex(F, sf + i) + y * u.getAtIndex(F, uf + i));
            }
        });
    }

    static void add(FloatArray d, FloatArray a) {
        Sweeps.from(d, a, "add into", (t, tf, s, sf, count) -> {
            for (long i = 0; i < count; i++) {
                t.setAtIndex(F, tf + i, t.getAtIndex(F, tf + i) + s.getAtIndex(F, sf + i));
            }
        });
    }

    static void scale(FloatArray d, float factor) {
        Sweeps.inPlace(d, "scale", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(F, i, s.getAtIndex(F, i) * factor);
            }
        });
    }

    static void clamp(FloatArray d, float min, float max) {
        if (!(min <= max)) {
            throw new IllegalArgumentException("cannot clamp to [" + min + ", " + max + "]: the bounds must be numbers,"
                    + " the first not above the second");
        }
        Sweeps.inPlace(d, "clamp", (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(F, i, Math.max(min, Math.min(max, s.getAtIndex(F, i))));
            }
        });
    }

    private static final LoopCopies<DoubleUnaryOperator, Runs.Two> UNARY =
            new LoopCopies<>(FloatUnaryLoop.class, DoubleUnaryOperator.class, FloatUnaryLoop::new);
    private static final LoopCopies<DoubleBinaryOperator, Runs.Three> BINARY =
            new LoopCopies<>(FloatBinaryLoop.class, DoubleBinaryOperator.class, FloatBinaryLoop::new);

    static void apply(FloatArray d, FloatArray a, DoubleUnaryOperator f) {
        Sweeps.from(d, a, "apply a function into", UNARY.loopFor(f));
    }

    static void apply(FloatArray d, FloatArray a, FloatArray b, DoubleBinaryOperator f) {
        Sweeps.from(d, a, b, "apply a function into", BINARY.loopFor(f));
    }

    static void fill(FloatArray d, long from, long to, float value) {
        Sweeps.inPlace(d, "fill", from, to, (s, first, count) -> {
            for (long i = first, end = first + count; i < end; i++) {
                s.setAtIndex(F, i, value);
            }
        });
    }

    /**
     * Replaces each element with the sum of it and those before it: each piece summed as {@link #sum} sums it (on
     * every worker), the sums of the pieces before each one added in index order, then each piece's running sum
     * from there (in {@code float}, from that sum rounded to {@code float}): not always the rounding of one running sum over the array.
     */
    static void prefixSum(FloatArray d) {
        String operation = "take the prefix sums of";
        double[] sums = pieceSums(d, null, operation);
        double[] before = new double[sums.length];
        for (int piece = 1; piece < sums.length; piece++) {
            before[piece] = before[piece - 1] + sums[piece - 1];
        }
        Sweeps.eachPiece(d, null, operation, true, (piece, from, to) -> Runs.over(d, from, to, (s, first, count) -> {
            float running = (float) before[piece];
            for (long i = first, end = first + count; i < end; i++) {
                running += s.getAtIndex(F, i);
                s.setAtIndex(F, i, running);
            }
            before[piece] = running;
        }));
    }

    /** {@link java.util.Arrays#binarySearch(float[], float)}'s search and order, over a long index. */
    static long binarySearch(FloatArray a, float key) {
        long low = 0;
        a.checkAlive("search");
        long high = a.length - 1;
        int keyBits = Float.floatToIntBits(key);
        while (low <= high) {
            long mid = (low + high) >>> 1;
            float value = a.get(mid);
            int bits = Float.floatToIntBits(value);
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
