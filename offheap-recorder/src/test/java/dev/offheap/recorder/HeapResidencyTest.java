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

package dev.offheap.recorder;

import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Files;
import java.io.RandomAccessFile;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeapResidencyTest {
    private static final long GIB = 1L << 30;

    @Test
    void findsTheHeapAsAnonymousMappingsSpanningMaxHeapSizeWithHolesAndArchiveFilesInside() {
        HeapResidency h = new HeapResidency(Path.of("/nonexistent"), 4 * GIB);
        List<long[]> writable = h.writableInHeap(List.of(
                "a1150000-e1000000 ---p 00000000 00:00 0 ",
                "700000000-740000000 rw-p 00000000 00:00 0 ",
                "740000000-7ffe00000 ---p 00000000 00:00 0 ",
                "7ffe00000-7fff00000 r--p 00001000 08:01 123 /usr/lib/jvm/lib/server/classes.jsa",
                "7fff24000-800000000 rw-p 00000000 00:00 0 ",
                "800000000-800100000 rw-p 00000000 08:01 123 /usr/lib/jvm/lib/server/classes.jsa",
                "7fc7fc000000-7fc7fc6a6000 rw-p 00000000 00:00 0"));
        assertThat(writable).extracting(v -> Long.toHexString(v[0]) + "-" + Long.toHexString(v[1]))
                .containsExactly("700000000-740000000", "7fff24000-800000000");
    }

    @Test
    void theRangeIsFoundOnceAndFollowsWhatIsCommittedInsideIt() {
        HeapResidency h = new HeapResidency(Path.of("/nonexistent"), GIB);
        assertThat(h.writableInHeap(List.of("40000000-50000000 rw-p 00000000 00:00 0", "50000000-80000000 ---p 00000000 00:00 0")))
                .hasSize(1);
        assertThat(h.writableInHeap(List.of("40000000-60000000 rw-p 00000000 00:00 0", "60000000-80000000 ---p 00000000 00:00 0",
                "80000000-90000000 rw-p 00000000 00:00 0")))
                .extracting(v -> v[1]).containsExactly(0x60000000L);
    }

    @Test
    void noRangeOfThatSizeIsNullAndCommittedStandsIn() {
        HeapResidency h = new HeapResidency(Path.of("/nonexistent"), GIB);
        assertThat(h.writableInHeap(List.of("40000000-50000000 rw-p 00000000 00:00 0",
                "50000000-80000000 rw-p 00000000 08:01 5 /data/file"))).isNull();
        assertThat(h.writableInHeap(List.of("40000000-50000000 rw-p 00000000 00:00 0"))).isNull();
        assertThat(h.resident(12345)).isEqualTo(12345);
        assertThat(h.exact()).isFalse();
    }

    @Test
    void countsThisJvmsHeapPagesAtMostItsCommittedSizeAndAgainWhenCommittedChanges() {
        HeapResidency h = new HeapResidency(Path.of("/proc/self"), Ceilings.maxHeapSize());
        long committed = Runtime.getRuntime().totalMemory();
        long resident = h.resident(committed);
        assertThat(h.exact()).isTrue();
        assertThat(resident).isBetween(1L, committed);
        assertThat(h.resident(4096)).as("a new committed size: counted again, capped").isEqualTo(4096);
    }

    @Test
    void countsTheEntriesWithTheirPresentBitAndReadsAMappingsPath() {
        byte[] entries = new byte[32];
        int presentByte = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 7 : 0;
        entries[presentByte] = (byte) 0x80; // present
        entries[8 + presentByte] = (byte) 0x40; // swapped, not resident
        entries[16 + presentByte] = (byte) 0xC1;
        entries[24 + (presentByte == 7 ? 0 : 7)] = (byte) 0xFF; // the other end of the entry: a frame number
        assertThat(HeapResidency.present(entries, 32)).isEqualTo(2);
        assertThat(HeapResidency.present(entries, 16)).isEqualTo(1);
        assertThat(HeapResidency.path("7f00-7f10 rw-p 00000000 00:00 0 ")).isEmpty();
        assertThat(HeapResidency.path("7f00-7f10 r--p 00001000 08:01 123    /usr/lib/a b.so")).isEqualTo("/usr/lib/a b.so");
        assertThat(HeapResidency.path("7f00-7f10 rw-p 00000000 00:00 0   [stack]")).isEqualTo("[stack]");
    }

    @TempDir
    Path proc;

    /** A heap of 16 pages at 0x40000000 whose first {@code present} pages are resident, in a pagemap of its own. */
    private void fakeProc(int present) throws Exception {
        Files.writeString(proc.resolve("maps"), "3f000000-3f001000 r--p 00000000 08:01 9 /lib/x.so\n"
                + "40000000-40010000 rw-p 00000000 00:00 0 \n");
        try (RandomAccessFile pagemap = new RandomAccessFile(proc.resolve("pagemap").toFile(), "rw")) {
            byte[] entries = new byte[16 * 8];
            int presentByte = java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN ? 7 : 0;
            for (int i = 0; i < present; i++) {
                entries[i * 8 + presentByte] = (byte) 0x80;
            }
            pagemap.seek(0x40000000L / 4096 * 8);
            pagemap.write(entries);
        }
    }

    @Test
    void countsAgainEveryTwelveSamplesOrWhenTheCommittedSizeChanges() throws Exception {
        fakeProc(5);
        HeapResidency h = new HeapResidency(proc, 0x10000);
        assertThat(h.resident(0x10000)).isEqualTo(5 * 4096);
        assertThat(h.exact()).isTrue();
        fakeProc(7);
        for (int i = 2; i <= HeapResidency.RESCAN_EVERY; i++) {
            assertThat(h.resident(0x10000)).as("sample %d: the last count", i).isEqualTo(5 * 4096);
        }
        assertThat(h.resident(0x10000)).as("the thirteenth sample counts again").isEqualTo(7 * 4096);
        fakeProc(9);
        assertThat(h.resident(0x20000)).as("a new committed size counts at once").isEqualTo(9 * 4096);
        assertThat(h.resident(3 * 4096)).as("capped at committed").isEqualTo(3 * 4096);
        Files.delete(proc.resolve("pagemap"));
        assertThat(h.resident(0x10000)).as("pagemap gone: committed stands in").isEqualTo(0x10000);
        assertThat(h.exact()).isFalse();
    }
}
