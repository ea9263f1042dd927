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

import java.util.Objects;

/**
 * The element-wise sweeps of the whole-array operations: a loop run over every run of the arrays' segments,
 * piece by piece on the current {@link Workers}, writing the first array.
 */
final class Sweeps {
    private Sweeps() {
    }

    /** Runs {@code loop} over {@code [from, to)} of {@code d}. */
    static void inPlace(TypedArray d, String operation, long from, long to, Runs.One loop) {
        d.checkAlive(operation);
        Objects.checkFromToIndex(from, to, d.length);
        d.operate(operation, true, from, null, null, () -> {
            long per = Pieces.elementsPerPiece(to - from, d.elementType().shift());
            Pieces.run(Pieces.count(to - from, per),
                    piece -> Runs.over(d, from + piece * per, Math.min(to, from + (piece + 1) * per), loop));
        });
    }

    /** Runs {@code loop} over every element of {@code d}. */
    static void inPlace(TypedArray d, String operation, Runs.One loop) {
        inPlace(d, operation, 0, d.length, loop);
    }

    /** Runs {@code loop} over every element of {@code d} and {@code a}, of the same length. */
    static void from(TypedArray d, TypedArray a, String operation, Runs.Two loop) {
        d.operate(operation, true, 0, a, null, () -> {
            long per = Pieces.elementsPerPiece(d.length, d.elementType().shift());
            Pieces.run(Pieces.count(d.length, per),
                    piece -> Runs.over(d, a, piece * per, Math.min(d.length, (piece + 1) * per), loop));
        });
    }

    /** Runs {@code loop} over every element of {@code d}, {@code a} and {@code b}, of the same length. */
    static void from(TypedArray d, TypedArray a, TypedArray b, String operation, Runs.Three loop) {
        d.operate(operation, true, 0, a, b, () -> {
            long per = Pieces.elementsPerPiece(d.length, d.elementType().shift());
            Pieces.run(Pieces.count(d.length, per),
                    piece -> Runs.over(d, a, b, piece * per, Math.min(d.length, (piece + 1) * per), loop));
        });
    }

    /** The number of pieces a reduction over {@code a} keeps a result for. */
    static int pieces(TypedArray a) {
        return Pieces.count(a.length, Pieces.elementsPerPiece(a.length, a.elementType().shift()));
    }

    /**
     * Runs {@code piece} for every piece of {@code a} (with {@code b}, if not null, of the same length), writing
     * {@code a} or not: for a reduction that keeps each piece's result at the piece's index, to combine them in
     * index order.
     */
    static void eachPiece(TypedArray a, TypedArray b, String operation, boolean writes, PieceReduction piece) {
        long per = Pieces.elementsPerPiece(a.length, a.elementType().shift());
        a.operate(operation, writes, 0, b, null, () -> Pieces.run(Pieces.count(a.length, per),
                k -> piece.run(k, k * per, Math.min(a.length, (k + 1) * per))));
    }

    /** One piece of a reduction: elements {@code [from, to)}, the piece's index {@code piece}. */
    @FunctionalInterface
    interface PieceReduction {
        void run(int piece, long from, long to);
    }
}
