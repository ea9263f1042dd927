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

import dev.offheap.metrics.OffheapEvents;
import dev.offheap.os.NativeFile;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A free spill chunk that held data is cleared by punching its space out and reserving it again (Linux). When
 * the reservation fails (the disk filled up in between), its space and data are gone: the chunk becomes a
 * hole, its charge goes back to the spill budget and a {@code ChunkReleased} event says so; the rest of the
 * request is given back as it was, and the pool goes on.
 */
class SpaceLostWhileClearingTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    @Test
    void aFreeChunkWhoseSpaceCannotBeReservedAgainBecomesAnUnchargedHole() throws IOException {
        assumeTrue(NativeFile.isSupported(), "only the Linux spill file clears a chunk by punching it");
        try (ChunkPool pool = ChunkPool.builder().name("lost-space").chunkSize(CHUNK).memoryLimit(0)
                .spillDirectory(Files.createDirectories(directory.resolve("spill"))).jmx(false).build()) {
            ByteArray held = pool.bytes(CHUNK);
            held.fill((byte) 4);
            try (ByteArray dirty = pool.bytes(2 * CHUNK)) {
                dirty.fill((byte) 6);
            }
            PoolState before = PoolState.of(pool);
            assertThat(before.stats().spill().orElseThrow().free()).isEqualTo(2);

            Throwable failure;
            List<RecordedEvent> released;
            try (Recording recording = new Recording();
                 SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                recording.enable(OffheapEvents.CHUNK_RELEASED);
                recording.start();
                faults.failNth(Call.FALLOCATE, 2, SystemCallFaults.ENOSPC); // the first chunk's punch, then its reservation
                failure = catchThrowable(() -> pool.bytes(2 * CHUNK));
                assertThat(faults.happened()).isTrue();
                recording.stop();
                Path file = directory.resolve("events.jfr");
                recording.dump(file);
                released = RecordingFile.readAllEvents(file).stream()
                        .filter(e -> e.getEventType().getName().equals(OffheapEvents.CHUNK_RELEASED))
                        .filter(e -> "lost-space".equals(e.getString("pool"))).toList();
            }

            assertThat(failure).isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot map or clear 2 chunks of pool 'lost-space'")
                    .cause().hasMessageStartingWith("cannot reserve " + CHUNK + " bytes at offset ")
                    .hasMessageContaining("offheap-lost-space-").hasMessageEndingWith("ENOSPC (no space left on device) [28]");
            assertThat(PoolState.of(pool)).isEqualTo(before.lostOneFreeSpillChunk());
            assertThat(released).as("the chunk whose space went").hasSize(1);
            assertThat(released.getFirst().getString("source")).isEqualTo("spill");
            assertThat(released.getFirst().getLong("bytes")).isEqualTo(CHUNK);

            try (ByteArray again = pool.bytes(2 * CHUNK)) {
                assertThat(again.get(0)).isZero();
                assertThat(again.get(2 * CHUNK - 1)).isZero();
            }
            assertThat(held.get(CHUNK - 1)).isEqualTo((byte) 4);
            held.close();
        }
    }
}
