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
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.MemoryBudget;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A view the kernel cannot map (more address space than a process has: a sparse file of 256 TiB on tmpfs, which
 * costs nothing) is refused with the kernel's reason, and the mapping and the bytes it asked for go back.
 */
class FailedMapGivesBackTest {
    /** 2^45 longs: 256 TiB of data, twice the 128 TiB of user address space on x86-64 and aarch64 Linux. */
    private static final long LENGTH = 1L << 45;

    private Path file;

    @BeforeEach
    void sparseFileOnTmpfs() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm), "Linux tmpfs at /dev/shm");
        file = Files.createTempFile(shm, "huge", ".npy");
        byte[] header = NpyFiles.header(1, NpyFiles.dict("<i8", false, "(" + LENGTH + ",)"));
        Files.write(file, header);
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(header.length + 8 * LENGTH);
        }
    }

    @AfterEach
    void removeFile() throws IOException {
        if (file != null) {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void aMapTheKernelRefusesSaysWhyAndGivesBackTheMappingAndTheBytes() throws IOException {
        MemoryBudget budget = MemoryBudget.root("maps", MemoryBudget.UNLIMITED);
        MappingBudget mappings = new MappingBudget("the test", "release views", 10);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY,
                MappedArray.Options.defaults().budget(budget).mappings(mappings).jmx(false))) {
            Throwable refused = catchThrowable(array::longs);
            // The JDK's IOException, caused by the OutOfMemoryError it makes of mmap's ENOMEM: both their messages.
            assertThat(refused).isInstanceOf(UncheckedIOException.class).cause().isInstanceOf(IOException.class)
                    .cause().isInstanceOf(OutOfMemoryError.class);
            Throwable jdk = refused.getCause();
            assertThat(refused).hasMessage("cannot map " + file + " (281474976710656 bytes from byte 128): "
                    + jdk.getMessage() + ": " + jdk.getCause().getMessage());
            assertThat(jdk.getMessage()).isNotNull();
            assertThat(jdk.getCause().getMessage()).isNotNull();
            assertThat(budget.used()).as("the 2^48 bytes charged for the view went back").isZero();
            assertThat(mappings.used()).as("the mapping taken for the view went back").isZero();
        }
    }

    @Test
    void withoutABudgetOnlyTheMappingGoesBack() throws IOException {
        MappingBudget mappings = new MappingBudget("the test", "release views", 10);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY,
                MappedArray.Options.defaults().mappings(mappings).jmx(false))) {
            assertThatThrownBy(array::longs).isInstanceOf(UncheckedIOException.class)
                    .hasMessageStartingWith("cannot map " + file + " (281474976710656 bytes from byte 128): ");
            assertThat(mappings.used()).isZero();
        }
    }
}
