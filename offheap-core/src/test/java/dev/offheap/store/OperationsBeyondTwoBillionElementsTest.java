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

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Whole-array operations on an array of more than 2^31 elements, almost all of it never written (so its pages
 * stay the kernel's shared zero page and the test needs no memory): the reductions, the search, and the writing
 * sweeps and copies over ranges that cross element 2^31, against values worked out by hand. The element-wise
 * operations over the whole array (mix, add, scale, prefix sums, sort) would write 8 GiB; they share the piece
 * and run arithmetic exercised here, and are checked against plain Java in the {@code *OperationsTest}s. Only
 * the contiguous layout: the portable one's chunks come from {@code Arena.allocate}, which zeroes (writes) them;
 * its chunk edges are covered by those tests, with chunks of 64 KiB.
 */
class OperationsBeyondTwoBillionElementsTest {
    private static final long BOUNDARY = 1L << 31;
    private static final long LENGTH = BOUNDARY + (1 << 20) + 3;

    @Test
    void reductionsSearchesFillsAndCopiesReachEveryElement() {
        try (ChunkPool pool = ChunkPool.builder().name("big").jmx(false).build();
             IntArray ints = pool.ints(LENGTH)) {
            ints.set(BOUNDARY - 1, -9);
            ints.set(BOUNDARY, 1000);
            ints.set(LENGTH - 1, 7);
            assertThat(ints.sum()).isEqualTo(998);
            assertThat(ints.dot(ints)).isEqualTo(81 + 1_000_000 + 49);
            assertThat(ints.min()).isEqualTo(-9);
            assertThat(ints.max()).isEqualTo(1000);

            ints.fill(BOUNDARY - 2, BOUNDARY + 3, 5); // over -9 and 1000
            assertThat(ints.toArray(BOUNDARY - 3, BOUNDARY + 4)).containsExactly(0, 5, 5, 5, 5, 5, 0);
            assertThat(ints.sum()).isEqualTo(25 + 7);

            long count = 3 * Pieces.PIECE_BYTES / Integer.BYTES + 11; // copied in pieces, in parallel
            ints.copyTo(BOUNDARY - 3, ints, BOUNDARY + 1000, count);
            assertThat(ints.sum()).isEqualTo(2 * 25 + 7);
            assertThat(ints.toArray(BOUNDARY + 1000, BOUNDARY + 1007)).containsExactly(0, 5, 5, 5, 5, 5, 0);

            ints.fill(BOUNDARY - 2, BOUNDARY + 3, 0); // back to zeros, writing only what was written
            ints.fill(BOUNDARY + 1001, BOUNDARY + 1006, 0);
            ints.fill(LENGTH - 10, LENGTH, 3);
            ints.set(LENGTH - 1, 4);
            assertThat(ints.sum()).isEqualTo(9 * 3 + 4);
            assertThat(ints.binarySearch(4)).isEqualTo(LENGTH - 1);
            assertThat(ints.binarySearch(3)).isBetween(LENGTH - 10, LENGTH - 2);
            assertThat(ints.binarySearch(5)).isEqualTo(-LENGTH - 1);
            assertThat(ints.binarySearch(-1)).isEqualTo(-1);
        }
    }
}
