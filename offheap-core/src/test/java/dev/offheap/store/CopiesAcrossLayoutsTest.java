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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Copies between arrays whose segments are cut differently: scattered chunks (portable path), one contiguous
 * segment, and one array into itself. Every copy moves exactly its range, piece by piece where the chunk edges
 * of source and destination differ, and an overlapping copy within one array acts as if through a temporary
 * copy, whichever way it moves.
 */
class CopiesAcrossLayoutsTest {
    private static final long CHUNK = 64 << 10;
    /** Longs per chunk. */
    private static final long C = CHUNK / 8;
    private static final long N = 2 * C + 3;

    private static ChunkPool pool(boolean portable) {
        return ChunkPool.builder().name("copies").chunkSize(CHUNK).portable(portable).jmx(false).build();
    }

    /** Element i holds i + 1. */
    private static void number(LongArray array) {
        for (long i = 0; i < array.length(); i++) {
            array.set(i, i + 1);
        }
    }

    @Test
    void fromAScatteredArrayIntoAOneChunkArrayAndBack() {
        try (ChunkPool pool = pool(true); LongArray big = pool.longs(N); LongArray small = pool.longs(16)) {
            assertThat(big.isContiguous()).isFalse();
            assertThat(small.isContiguous()).as("one chunk is one segment").isTrue();
            number(big);
            big.copyTo(C - 2, small, 3, 4);
            assertThat(small.toArray(0, 8)).containsExactly(0, 0, 0, C - 1, C, C + 1, C + 2, 0);
            for (int i = 0; i < 16; i++) {
                small.set(i, 100 + i);
            }
            small.copyTo(2, big, 2 * C - 1, 4);
            assertThat(big.toArray(2 * C - 2, N)).containsExactly(2 * C - 1, 102, 103, 104, 105);
            assertThat(big.get(C)).isEqualTo(C + 1);
        }
    }

    @Test
    void betweenScatteredArraysAtDifferentPlacesInTheirChunks() {
        try (ChunkPool pool = pool(true); LongArray a = pool.longs(N); LongArray b = pool.longs(N)) {
            number(a);
            a.copyTo(C - 5, b, 2, C + 8);
            assertThat(b.toArray(0, 4)).containsExactly(0, 0, C - 4, C - 3);
            assertThat(b.toArray(C - 1, C + 1)).containsExactly(2 * C - 7, 2 * C - 6);
            assertThat(b.toArray(C + 8, C + 12)).containsExactly(2 * C + 2, 2 * C + 3, 0, 0);
            for (long i = 2; i < C + 10; i++) {
                assertThat(b.get(i)).as("element %d", i).isEqualTo(C - 6 + i);
            }
        }
    }

    @ParameterizedTest(name = "portable={0}: {1} elements from {2} to {3}")
    @CsvSource({
        // one element up, one down, through every chunk
        "true, 16386, 0, 1",
        "true, 16386, 1, 0",
        // a chunk and one element apart, the source and the destination at different places in their chunks
        "true, 8192, 3, 8193",
        "true, 8192, 8193, 3",
        "true, 8195, 0, 8192",
        // onto itself, and next to itself
        "true, 10, 5, 5",
        "true, 10, 8190, 8200",
        "false, 16386, 0, 1",
        "false, 16386, 1, 0",
        "false, 8192, 3, 8193",
    })
    void anOverlappingCopyWithinOneArrayActsAsThroughATemporaryCopy(boolean portable, long count, long from,
            long to) {
        try (ChunkPool pool = pool(portable); LongArray a = pool.longs(N)) {
            number(a);
            long[] expected = a.toArray(0, N);
            System.arraycopy(expected.clone(), (int) from, expected, (int) to, (int) count);
            a.copyTo(from, a, to, count);
            assertThat(a.toArray(0, N)).isEqualTo(expected);
            // by hand: the first element copied is where it was sent, and the one before the range is untouched
            assertThat(a.get(to)).isEqualTo(from + 1);
            assertThat(a.get(to + count - 1)).isEqualTo(from + count);
            if (to > 0) {
                assertThat(a.get(to - 1)).isEqualTo(to);
            }
        }
    }

    @Test
    void oneElementUpThroughEveryChunkByHand() {
        try (ChunkPool pool = pool(true); LongArray a = pool.longs(N)) {
            number(a);
            a.copyTo(0, a, 1, N - 1);
            assertThat(a.toArray(0, 3)).containsExactly(1, 1, 2);
            assertThat(a.toArray(C - 1, C + 2)).containsExactly(C - 1, C, C + 1);
            assertThat(a.toArray(N - 2, N)).containsExactly(N - 2, N - 1);
            a.copyTo(2, a, 0, N - 2);
            assertThat(a.toArray(0, 3)).containsExactly(2, 3, 4);
            assertThat(a.toArray(C - 1, C + 2)).containsExactly(C + 1, C + 2, C + 3);
            assertThat(a.toArray(N - 3, N)).containsExactly(N - 1, N - 2, N - 1);
        }
    }
}
