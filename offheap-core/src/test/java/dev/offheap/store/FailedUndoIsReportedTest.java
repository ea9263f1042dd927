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

import dev.offheap.os.NativeFile;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two failures in a row: a step of a request fails, then a step of its undo fails too. The request throws the
 * first failure, never hides it, and carries the undo's failure as a suppressed exception, which names what could
 * not be given back; the pool still serves requests and closes.
 */
class FailedUndoIsReportedTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    @Test
    void newBlocksThatCannotBeUnmappedWhenALaterBlockIsRefused() {
        assumeTrue(NativeFile.isSupported(), "movable blocks are Linux only");
        try (ChunkPool pool = ChunkPool.builder().name("undo-blocks").chunkSize(CHUNK).jmx(false).build();
             SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MMAP, 3, SystemCallFaults.ENOMEM).failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
            Throwable failure = catchThrowable(() -> pool.bytes(3 * CHUNK));
            assertThat(faults.happened()).isTrue();
            faults.close();
            assertThat(failure).isInstanceOf(OutOfMemoryError.class)
                    .hasMessageStartingWith("movable memory of pool 'undo-blocks': mmap of " + CHUNK + " bytes failed");
            assertSuppressed(failure, "munmap of " + CHUNK + " bytes of memory of pool 'undo-blocks' at 0x");
            assertStillServes(pool);
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void aSpillFileThatCannotBeCutBackWhenItsSpaceRunsOut(boolean portable) {
        assumeTrue(portable || NativeFile.isSupported(), "the Linux spill file");
        try (ChunkPool pool = ChunkPool.builder().name("undo-cut").chunkSize(CHUNK).memoryLimit(0)
                .spillDirectory(directory).portable(portable).jmx(false).build();
             SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            // Linux: grow, reserve, grow, reserve (refused), cut back (refused); portable: write, write (refused), cut
            faults.failNth(Call.FALLOCATE, 2, SystemCallFaults.ENOSPC)
                    .failNth(Call.FTRUNCATE, portable ? 1 : 3, SystemCallFaults.EIO);
            Throwable failure = catchThrowable(() -> pool.bytes(2 * CHUNK));
            assertThat(faults.happened()).isTrue();
            faults.close();
            assertThat(failure).isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot reserve space for 2 chunks of " + CHUNK + " bytes in the spill directory");
            assertSuppressed(failure.getCause(), portable ? "cannot give back the space of " : "ftruncate of ");
            assertSuppressed(failure.getCause(), "offheap-undo-cut-");
            assertStillServes(pool);
        }
    }

    @ParameterizedTest(name = "portable={0}")
    @ValueSource(booleans = {false, true})
    void theUndoOfARequestWhoseMappingFailed(boolean portable) {
        assumeTrue(portable || NativeFile.isSupported(), "the contiguous layout is Linux only");
        ChunkPool.Builder builder = ChunkPool.builder().name("undo-request").chunkSize(CHUNK).portable(portable)
                .jmx(false);
        if (portable) { // the spill file's first view is refused, then cutting its new chunks off
            builder.memoryLimit(0).spillDirectory(directory);
        }
        try (ChunkPool pool = builder.build(); SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            if (portable) {
                faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM).failNth(Call.FTRUNCATE, 1, SystemCallFaults.EIO);
            } else { // two blocks, then the array's range is refused, then unmapping the last new block
                faults.failNth(Call.MMAP, 3, SystemCallFaults.ENOMEM).failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
            }
            Throwable failure = catchThrowable(() -> pool.bytes(2 * CHUNK));
            assertThat(faults.happened()).isTrue();
            faults.close();
            if (portable) {
                assertThat(failure).isInstanceOf(UncheckedIOException.class)
                        .hasMessageStartingWith("cannot map or clear 2 chunks of pool 'undo-request'");
                assertSuppressed(failure.getCause(), "cannot give back the space of ");
            } else {
                assertThat(failure).isInstanceOf(OutOfMemoryError.class)
                        .hasMessageStartingWith("address reservation of pool 'undo-request': mmap of");
                assertSuppressed(failure, "munmap of " + CHUNK + " bytes of memory of pool 'undo-request'");
            }
            assertStillServes(pool);
        }
    }

    @Test
    void aRangeThatCannotBeUnmappedAfterABlockWasRefused() {
        assumeTrue(NativeFile.isSupported(), "the contiguous layout is Linux only");
        try (ChunkPool pool = ChunkPool.builder().name("undo-range").chunkSize(CHUNK).jmx(false).build();
             SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            // the second block is refused its move into the range, then unmapping the rest of the range fails
            faults.failNth(Call.MREMAP, 2, SystemCallFaults.ENOMEM).failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
            Throwable failure = catchThrowable(() -> pool.bytes(3 * CHUNK));
            assertThat(faults.happened()).isTrue();
            faults.close();
            assertThat(failure).isInstanceOf(OutOfMemoryError.class)
                    .hasMessageStartingWith("mremap of " + CHUNK + " bytes of memory of pool 'undo-range' failed");
            assertSuppressed(failure, "munmap of " + 2 * CHUNK + " bytes of memory of pool 'undo-range'");
            assertStillServes(pool);
        }
    }

    private static void assertSuppressed(Throwable failure, String start) {
        assertThat(Arrays.stream(failure.getSuppressed()).map(String::valueOf))
                .as("what %s suppressed", failure)
                .anySatisfy(s -> assertThat(s).contains(start));
    }

    private static void assertStillServes(ChunkPool pool) {
        try (ByteArray array = pool.bytes(3 * CHUNK)) {
            array.set(3 * CHUNK - 1, (byte) 1);
            assertThat(array.get(0)).isZero();
        }
        assertThat(pool.stats().liveArrays()).isZero();
    }
}
