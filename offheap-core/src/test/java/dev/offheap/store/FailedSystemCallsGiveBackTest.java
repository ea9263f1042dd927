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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every system call a request makes, failed in turn (the first {@code mmap}, the second, ... until the request
 * makes no more of that kind): the request throws an exception that names the pool or its spill file, and gives
 * back exactly what it took. The pool's statistics (but the peaks), its budgets, its mappings, the addresses it
 * records as its own (all mapped), its spill file's size, disk blocks and mappings are as before; nothing the
 * failed calls mapped is left mapped but what the pool owns; an array it held keeps its data; and the same
 * request succeeds afterwards, reading zeros.
 *
 * <p>The request reuses free chunks that held data (cleared again: {@code madvise}, a hole punched and reserved),
 * re-backs holes, creates chunks and, on Linux, places them all in one reserved range ({@code mremap} of memory
 * blocks, {@code mmap MAP_FIXED} of spill file runs).
 */
class FailedSystemCallsGiveBackTest {
    private static final long CHUNK = 64 << 10;
    /** More calls of one kind than any request here makes. */
    private static final int MOST_CALLS = 64;

    @TempDir
    Path spillDirectory;

    /** Where the chunks come from: memory, the spill file, or both; contiguous (Linux) or portable. */
    enum Kind {
        MEMORY(false, false),
        SPILL(true, false),
        MIXED(true, true);

        final boolean spill;
        final boolean mixed;

        Kind(boolean spill, boolean mixed) {
            this.spill = spill;
            this.mixed = mixed;
        }
    }

    static Stream<Arguments> pools() {
        List<Arguments> all = new ArrayList<>();
        for (boolean portable : new boolean[] {false, true}) {
            for (Kind kind : Kind.values()) {
                all.add(Arguments.of(kind, portable, CHUNK));
            }
        }
        // Chunks of a huge page: each block is mapped larger, then cut to its alignment (two munmaps), and advised.
        all.add(Arguments.of(Kind.MEMORY, false, MovableMemory.HUGE_PAGE));
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, portable={1}, chunks of {2}")
    @MethodSource("pools")
    void everyFailedCallOfARequestGivesBackWhatItTook(Kind kind, boolean portable, long chunkSize) {
        assumeTrue(portable || NativeFile.isSupported(), "the contiguous layout is Linux only");
        assumeTrue(chunkSize <= ChunkPoolSettings.MAX_CHUNK_SIZE, "a huge page within the chunk sizes");
        Set<Call> failedSomewhere = EnumSet.noneOf(Call.class);
        List<String> harmless = new ArrayList<>();
        for (Call call : Call.values()) {
            for (int nth = 1; ; nth++) {
                assertThat(nth).as("%s calls of one request", call).isLessThan(MOST_CALLS);
                String name = "faults-" + kind.name().toLowerCase() + "-" + call.name().toLowerCase() + "-" + nth;
                Outcome outcome = failOneCall(name, kind, portable, chunkSize, call, nth);
                if (outcome == Outcome.NOT_MADE) {
                    break;
                }
                if (outcome == Outcome.FAILED) {
                    failedSomewhere.add(call);
                } else {
                    harmless.add(call + " #" + nth);
                }
            }
        }
        Set<Call> expected = EnumSet.of(Call.MMAP); // a block, a view of the spill file, the array's range
        if (kind != Kind.MEMORY) {
            expected.add(Call.FALLOCATE); // the spill file's space reserved (portable: written)
        }
        if (!portable && kind != Kind.MEMORY) {
            expected.add(Call.FTRUNCATE); // the spill file grown for new chunks
        }
        if (!portable && kind != Kind.SPILL) {
            expected.addAll(EnumSet.of(Call.MREMAP, Call.MADVISE)); // blocks moved in; reused ones cleared
        }
        assertThat(failedSomewhere).as("the calls whose failure failed the request (harmless: %s)", harmless)
                .containsAll(expected);
    }

    private enum Outcome { FAILED, SUCCEEDED_ANYWAY, NOT_MADE }

    private Outcome failOneCall(String name, Kind kind, boolean portable, long chunkSize, Call call, int nth) {
        ChunkPool.Builder builder = ChunkPool.builder().name(name).chunkSize(chunkSize).portable(portable).jmx(false);
        if (kind.spill) {
            builder.spillDirectory(spillDirectory).memoryLimit(kind.mixed ? 6 * chunkSize : 0);
        }
        try (ChunkPool pool = builder.build()) {
            ByteArray held = pool.bytes(chunkSize);
            held.fill((byte) 7);
            pool.bytes(4 * chunkSize).close();
            pool.trim();
            try (ByteArray dirty = pool.bytes(2 * chunkSize)) {
                dirty.fill((byte) 9);
            }
            long length = 8 * chunkSize; // free chunks that held data, holes, new chunks (and spill ones when mixed)
            PoolState before = PoolState.of(pool);

            Throwable failure;
            ByteArray served = null;
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(call, nth, errnoFor(call));
                try {
                    served = pool.bytes(length);
                    failure = null;
                } catch (RuntimeException | Error e) {
                    failure = e;
                }
                boolean happened = faults.happened();
                if (!happened || failure == null) {
                    faults.close(); // the fault is no longer wanted: releasing the array must not make it happen
                    assertThat(failure).as("a request that made fewer than %d %s calls", nth, call).isNull();
                    served.close();
                    held.close();
                    return happened ? Outcome.SUCCEEDED_ANYWAY : Outcome.NOT_MADE;
                }
                PoolState.assertNothingLeftMapped(faults, pool);
            }
            PoolState expected = clearingLostAChunk(failure) ? before.lostOneFreeSpillChunk() : before;
            assertThat(PoolState.of(pool)).as("after %s #%d failed: %s", call, nth, failure).isEqualTo(expected);
            assertThat(chain(failure)).as("what %s #%d failing says: %s", call, nth, failure).contains(name);
            assertThat(held.get(0)).isEqualTo((byte) 7);
            assertThat(held.get(chunkSize - 1)).isEqualTo((byte) 7);
            try (ByteArray again = pool.bytes(length)) {
                for (long edge = 0; edge < length; edge += chunkSize) {
                    assertThat(again.get(edge)).isZero();
                    assertThat(again.get(edge + chunkSize - 1)).isZero();
                }
            }
            held.close();
            return Outcome.FAILED;
        }
    }

    /**
     * Whether {@code failure} is a free spill chunk's space that could not be reserved again after its hole was
     * punched to clear it (Linux): that chunk is a hole now, uncharged, as {@code ChunkSource.clearTaken} says,
     * since its space is gone and its data with it.
     */
    private static boolean clearingLostAChunk(Throwable failure) {
        return failure.getMessage().startsWith("cannot map or clear") && failure.getCause() != null
                && failure.getCause().getMessage().startsWith("cannot reserve");
    }

    static int errnoFor(Call call) {
        return switch (call) {
            case MMAP, MREMAP -> SystemCallFaults.ENOMEM;
            case FALLOCATE -> SystemCallFaults.ENOSPC;
            case FTRUNCATE -> SystemCallFaults.EIO;
            case MUNMAP, MADVISE -> SystemCallFaults.EINVAL;
        };
    }

    /** The messages of {@code failure}, its causes and what they suppressed. */
    static String chain(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t).append('\n');
            for (Throwable s : t.getSuppressed()) {
                text.append("suppressed: ").append(chain(s));
            }
        }
        return text.toString();
    }
}
