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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedArray.Mode#SHARED} in one JVM: any number of {@code SHARED} and {@code READ_ONLY} openers share a
 * file and see each other's writes at once (the same pages), a {@code READ_WRITE} opener excludes them and they
 * exclude it, and what would change the file under other processes (grow) is refused, leaving it as it was.
 * Across processes: {@code SharedArrayAcrossProcessesTest}.
 */
class MappedArraySharedModeTest {
    @TempDir
    Path dir;

    @Test
    void twoSharedOpenersAndAReaderSeeEachOthersWritesAtOnce() throws IOException {
        Path file = dir.resolve("shared.npy");
        MappedArray.create(file, ElementType.LONG, 1000).close();
        try (MappedArray one = MappedArray.open(file, MappedArray.Mode.SHARED);
             MappedArray two = MappedArray.open(file, MappedArray.Mode.SHARED, ElementType.LONG);
             MappedArray reader = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             LongArray a = one.longs();
             LongArray b = two.longs();
             LongArray r = reader.longs()) {
            assertThat(one.mode()).isEqualTo(MappedArray.Mode.SHARED);
            assertThat(one.toString()).endsWith(", SHARED]");
            a.set(7, 42);
            assertThat(b.get(7)).isEqualTo(42);
            assertThat(b.getAndAdd(999, 5)).isZero();
            assertThat(a.compareAndSet(999, 5, 6)).isTrue();
            assertThat(r.getAcquire(999)).isEqualTo(6);
            assertThatThrownBy(() -> r.setRelease(999, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("opened READ_ONLY");
            one.force();
            two.force();
        }
        try (MappedArray again = MappedArray.open(file, MappedArray.Mode.READ_WRITE); LongArray longs = again.longs()) {
            assertThat(longs.get(7)).isEqualTo(42);
            assertThat(longs.get(999)).isEqualTo(6);
        }
    }

    @Test
    void aReadWriteOpenerAndSharedOnesExcludeEachOtherNamingTheModes() throws IOException {
        Path file = dir.resolve("excluded.npy");
        try (MappedArray writer = MappedArray.create(file, ElementType.INT, 10)) {
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.SHARED))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageStartingWith(file + ": cannot open it SHARED: a MappedArray of this JVM has it open"
                            + " READ_WRITE")
                    .hasMessageContaining("a file is open READ_WRITE by one MappedArray at a time, or READ_ONLY and"
                            + " SHARED by any number: close that one first");
        }
        try (MappedArray shared = MappedArray.open(file, MappedArray.Mode.SHARED)) {
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageStartingWith(file + ": cannot open it READ_WRITE: a MappedArray of this JVM has it open"
                            + " SHARED");
            assertThat(shared.length()).isEqualTo(10);
        }
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    @Test
    void aSharedFileKeepsItsLengthAndHeader() throws IOException {
        Path file = dir.resolve("fixed.npy");
        MappedArray.create(file, ElementType.INT, 100).close();
        byte[] before = Files.readAllBytes(file);
        try (MappedArray shared = MappedArray.open(file, MappedArray.Mode.SHARED)) {
            assertThatThrownBy(() -> shared.grow(200)).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot grow " + file + ": it is open SHARED");
            assertThatThrownBy(() -> shared.grow(100)).isInstanceOf(IllegalStateException.class);
            assertThat(shared.length()).isEqualTo(100);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void numpysFilesOpenShared() throws IOException {
        Path file = NpyFiles.write(dir.resolve("numpy.npy"), NpyFiles.header(1, NpyFiles.dict("<i8", false, "(4,)")),
                new byte[32]);
        try (MappedArray shared = MappedArray.open(file, MappedArray.Mode.SHARED); LongArray longs = shared.longs()) {
            longs.setRelease(3, -1);
            assertThat(longs.getVolatile(3)).isEqualTo(-1);
        }
    }
}
