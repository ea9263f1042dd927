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

package dev.offheap.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.os.SystemCallFaults.Call;
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault seam itself ({@link Faults}): the Nth call of a kind, counted from when it is armed, fails, only
 * on the thread that armed it; the failure looks like the kernel's (or the JDK's) own; closing the seam forgets
 * what did not happen, and an unarmed seam fails nothing.
 */
class FaultSeamTest {
    private static final long PAGE = NativeMemory.PAGE_SIZE;

    @TempDir
    Path dir;

    @Test
    void onlyTheNthCallOfItsKindFails() {
        NativeMemory memory = NativeMemory.system();
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MMAP, 2, SystemCallFaults.ENOMEM).failNth(Call.FTRUNCATE, 1, SystemCallFaults.EIO);
            memory.allocate(PAGE).close();
            assertThat(faults.happened()).isFalse();
            assertThatThrownBy(() -> memory.allocate(PAGE)).isInstanceOf(OutOfMemoryError.class);
            assertThat(faults.happened()).as("the ftruncate still waits").isFalse();
            memory.allocate(PAGE).close();
        }
    }

    @Test
    void callsOfOtherThreadsNeitherCountNorFail() throws InterruptedException {
        NativeMemory memory = NativeMemory.system();
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread thread = new Thread(() -> {
                try {
                    memory.allocate(PAGE).close();
                    memory.allocate(PAGE).close();
                } catch (Throwable t) {
                    other.set(t);
                }
            });
            thread.start();
            Waits.join(thread);
            assertThat(other.get()).isNull();
            assertThat(faults.happened()).isFalse();
            assertThatThrownBy(() -> memory.allocate(PAGE)).isInstanceOf(OutOfMemoryError.class);
            faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM); // the thread that armed may arm more
            assertThat(faults.happened()).isFalse();
        }
    }

    @Test
    void aSecondThreadCannotArmWhileTheFirstsFaultsWait() throws InterruptedException {
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MUNMAP, 1, SystemCallFaults.EINVAL);
            AtomicReference<Throwable> other = new AtomicReference<>();
            Thread thread = new Thread(() -> other.set(catchThrowable(
                    () -> Faults.failNth(Faults.Call.MMAP, 1, SystemCallFaults.ENOMEM))));
            thread.start();
            Waits.join(thread);
            assertThat(other.get()).isInstanceOf(IllegalStateException.class).hasMessageContaining("still wait");
        }
    }

    @Test
    void closingForgetsWhatDidNotHappenAndAnUnarmedSeamFailsNothing() {
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
        }
        assertThat(Faults.errnoFor(Faults.Call.MMAP)).isZero();
        NativeMemory.system().allocate(PAGE).close();
        NativeMemory.portable().allocate(PAGE).close();
    }

    @Test
    void anInjectedMmapFailureReadsAsTheKernelsOwn() {
        assumeTrue(Libc.mmapAvailable(), "mmap through the Linker");
        long tooLarge = 1L << 62; // more than any address space: the kernel's ENOMEM
        Throwable real = catchThrowable(() -> Libc.mmapAnonymous(tooLarge, "test memory"));
        Throwable injected;
        try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
            injected = catchThrowable(() -> Libc.mmapAnonymous(tooLarge, "test memory"));
        }
        assertThat(injected).isInstanceOf(real.getClass()).hasMessage(real.getMessage());
        assertThat(injected).hasMessage("test memory: mmap of " + tooLarge
                + " bytes failed: ENOMEM (out of memory, or vm.max_map_count reached) [12]");
    }

    @Test
    void anInjectedFileMapFailureReadsAsTheJdksOwn() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "Linux tmpfs at /dev/shm");
        Path file = Files.createTempFile(shm, "huge", ".bin");
        try {
            try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
                sparse.setLength(1L << 48); // 256 TiB, a hole on tmpfs: more than the address space
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ); Arena arena = Arena.ofShared()) {
                Throwable real = catchThrowable(() -> channel.map(FileChannel.MapMode.READ_ONLY, 0, 1L << 47, arena));
                Throwable injected;
                try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                    faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
                    injected = catchThrowable(() -> FileCalls.map(channel, FileChannel.MapMode.READ_ONLY, 0, PAGE, arena));
                }
                assertThat(injected).isInstanceOf(real.getClass()).hasMessage(real.getMessage());
                assertThat(injected.getCause()).isInstanceOf(real.getCause().getClass())
                        .hasMessage(real.getCause().getMessage());
                MemorySegment mapped = FileCalls.map(channel, FileChannel.MapMode.READ_ONLY, 0, PAGE, arena);
                assertThat(mapped.byteSize()).as("the seam closed: the next map is the JDK's").isEqualTo(PAGE);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void injectedFailuresOfTheSpaceCallsNameTheFileAndTheErrno() throws IOException {
        assumeTrue(NativeFile.isSupported(), "the Linux spill file");
        try (NativeFile file = NativeFile.spill(dir, "seam"); SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.FTRUNCATE, 1, SystemCallFaults.EIO);
            assertThatThrownBy(() -> file.grow(PAGE)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("ftruncate of " + file + " to " + PAGE + " bytes failed: EIO [5]");
            assertThat(file.size()).isZero();
            file.grow(PAGE);
            faults.failNth(Call.FALLOCATE, 1, SystemCallFaults.ENOSPC);
            assertThatThrownBy(() -> file.reserve(0, PAGE)).isInstanceOf(IOException.class)
                    .hasMessage("cannot reserve " + PAGE + " bytes at offset 0 of " + file
                            + ": ENOSPC (no space left on device) [28]");
        }
    }

    @Test
    void thePortableSpaceFailsAsAFullDiskDoes() throws IOException {
        Path path = dir.resolve("portable.bin");
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE); SystemCallFaults faults = SystemCallFaults.onThisThread()) {
            faults.failNth(Call.FALLOCATE, 1, SystemCallFaults.ENOSPC);
            assertThatThrownBy(() -> FileSpace.portable().reserve(channel, path, 0, PAGE))
                    .isInstanceOf(IOException.class)
                    .hasMessage("cannot reserve " + PAGE + " bytes at offset 0 of " + path + ": No space left on device");
            faults.failNth(Call.FTRUNCATE, 1, SystemCallFaults.EIO);
            assertThatThrownBy(() -> FileCalls.truncate(channel, 0)).isInstanceOf(IOException.class)
                    .hasMessage("Input/output error");
        }
    }
}
