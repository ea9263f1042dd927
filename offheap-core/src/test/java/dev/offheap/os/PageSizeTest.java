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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page size comes from the OS, as {@code getconf PAGESIZE} prints it, not a constant. */
class PageSizeTest {

    @Test
    void thePageSizeIsTheOperatingSystems() throws IOException, InterruptedException {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "getconf and sysconf are asked on Linux");
        Process getconf = new ProcessBuilder("getconf", "PAGESIZE").start();
        String printed = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(getconf.waitFor()).isZero();

        assertThat(NativeMemory.PAGE_SIZE).isEqualTo(Long.parseLong(printed));
        assertThat(Long.bitCount(NativeMemory.PAGE_SIZE)).isEqualTo(1);
        assertThat(NativeMemory.roundToPage(1)).isEqualTo(NativeMemory.PAGE_SIZE);
    }

    @Test
    void theHugePageSizeIsTheKernelsAndFollowsThePageSizeWhereItCannotBeRead(@TempDir Path dir) throws IOException {
        Path sysfs = Path.of("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
        if (Files.isReadable(sysfs)) {
            assertThat(MovableMemory.HUGE_PAGE).isEqualTo(Long.parseLong(Files.readString(sysfs).strip()));
        }
        assertThat(MovableMemory.hugePageFor(4096)).isEqualTo(2L << 20);
        assertThat(MovableMemory.hugePageFor(16384)).isEqualTo(32L << 20);
        assertThat(MovableMemory.hugePageFor(65536)).isEqualTo(512L << 20);
        Path missing = dir.resolve("missing");
        assertThat(MovableMemory.hugePage(missing, 16384)).isEqualTo(32L << 20);
        Path stated = Files.writeString(dir.resolve("stated"), "33554432\n");
        assertThat(MovableMemory.hugePage(stated, 16384)).isEqualTo(32L << 20);
        Path garbage = Files.writeString(dir.resolve("garbage"), "never\n");
        assertThat(MovableMemory.hugePage(garbage, 4096)).isEqualTo(2L << 20);
    }
}
