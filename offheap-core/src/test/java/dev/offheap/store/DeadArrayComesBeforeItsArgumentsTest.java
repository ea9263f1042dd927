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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A dead array says so before anything else: an operation with indexes out of range, or with nothing to do (no
 * element to copy or fill), throws the dead-handle {@link IllegalStateException} naming the operation, the
 * array and the pool, never an {@link IndexOutOfBoundsException} or nothing. A kernel never runs on an ended
 * array, even one that its own previous run ended. Its {@code toString} says how it is laid out and whose it is.
 */
class DeadArrayComesBeforeItsArgumentsTest {
    private static final long CHUNK = 64 << 10;

    private static ChunkPool pool(boolean portable) {
        return ChunkPool.builder().name("dead").chunkSize(CHUNK).portable(portable).jmx(false).build();
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aReleasedArrayRefusesOutOfRangeAndEmptyOperationsAsDead(boolean portable) {
        try (ChunkPool pool = pool(portable); LongArray live = pool.longs(16)) {
            LongArray dead = pool.longs(16);
            dead.release();
            String named = "LongArray[length=16, contiguous, chunk pool 'dead', released]: it was already released";
            assertThatThrownBy(() -> dead.copyTo(0, live, 0, 1000)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy from " + named);
            assertThatThrownBy(() -> live.copyTo(0, dead, 0, 1000)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy to " + named);
            assertThatThrownBy(() -> dead.copyTo(3, live, 3, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy from " + named);
            assertThatThrownBy(() -> live.copyTo(3, dead, 3, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy to " + named);
            assertThatThrownBy(() -> dead.copyTo(0, new long[4], 0, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy from " + named);
            assertThatThrownBy(() -> dead.copyFrom(new long[4], 0, 0, 0)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy to " + named);
            assertThatThrownBy(() -> dead.copyTo(0, new long[4], 0, 99)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy from " + named);
            assertThatThrownBy(() -> dead.fill(5, 5, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot fill " + named);
            assertThatThrownBy(() -> dead.fill(0, 99, 1)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot fill " + named);
            assertThatThrownBy(() -> dead.toArray(2, 2)).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot copy from " + named);
            assertThat(live.toArray(0, 16)).containsOnly(0);
        }
    }

    @Test
    void aKernelThatReleasesItsArrayIsNotRunAgainOnTheNextChunk() {
        try (ChunkPool pool = pool(true)) {
            LongArray array = pool.longs(3 * CHUNK / 8);
            assertThat(array.isContiguous()).isFalse();
            List<Long> runs = new ArrayList<>();
            assertThatThrownBy(() -> array.forEachChunk((segment, first) -> {
                runs.add(first);
                array.release();
            })).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot run a kernel over LongArray[length=24576, 3 chunks, chunk pool 'dead',"
                            + " released]: it was already released");
            assertThat(runs).containsExactly(0L);
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void anErrorOfAKernelOverAPoolsArrayReachesTheCallerAsItIs(boolean portable) {
        try (ChunkPool pool = pool(portable); LongArray array = pool.longs(3 * CHUNK / 8)) {
            InternalError error = new InternalError("a fault occurred in an unsafe memory access operation");
            List<Long> runs = new ArrayList<>();
            assertThatThrownBy(() -> array.forEachChunk((segment, first) -> {
                runs.add(first);
                throw error;
            })).isSameAs(error);
            assertThat(runs).containsExactly(0L);
            assertThat(array.get(0)).as("the array lives on").isZero();
        }
    }

    @Test
    void toStringSaysTheLengthTheLayoutTheOwnerAndWhetherReleased() throws Exception {
        try (ChunkPool linux = pool(false); ChunkPool portable = pool(true)) {
            LongArray contiguous = linux.longs(3 * CHUNK / 8);
            LongArray scattered = portable.longs(3 * CHUNK / 8 + 1);
            DoubleArray oneChunk = portable.doubles(5);
            assertThat(contiguous).hasToString("LongArray[length=24576, contiguous, chunk pool 'dead']");
            assertThat(scattered).hasToString("LongArray[length=24577, 4 chunks, chunk pool 'dead']");
            assertThat(oneChunk).hasToString("DoubleArray[length=5, contiguous, chunk pool 'dead']");
            contiguous.retain();
            contiguous.release();
            assertThat(contiguous).as("one owner left").hasToString("LongArray[length=24576, contiguous, chunk pool 'dead']");
            contiguous.release();
            scattered.release();
            assertThat(contiguous).hasToString("LongArray[length=24576, contiguous, chunk pool 'dead', released]");
            assertThat(scattered).hasToString("LongArray[length=24577, 4 chunks, chunk pool 'dead', released]");
            portable.close();
            assertThat(oneChunk).as("ended with its pool").hasToString("DoubleArray[length=5, contiguous, chunk pool 'dead', released]");
        }
    }
}
