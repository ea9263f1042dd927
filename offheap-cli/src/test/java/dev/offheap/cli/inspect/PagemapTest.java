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

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /proc/PID/pagemap read for this JVM's own memory: a fresh anonymous mapping, some of its pages touched. */
class PagemapTest {
    private static final long PAGES = 256; // 1 MiB with 4 KiB pages: too small to hold a transparent huge page
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MAP_NORESERVE = 0x4000;
    private static final int MADV_NOHUGEPAGE = 15;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MMAP = function("mmap", FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
    private static final MethodHandle MADVISE = function("madvise", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle MUNMAP = function("munmap", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
            ValueLayout.JAVA_LONG));

    private final long self = ProcessHandle.current().pid();
    private long page;
    private MemorySegment mapping;

    @BeforeEach
    void mapFreshPages() throws Throwable {
        assumeThat(Files.isReadable(Path.of("/proc/self/pagemap"))).as("Linux with /proc/PID/pagemap").isTrue();
        page = Pagemap.pageSize();
        mapping = ((MemorySegment) MMAP.invokeExact(MemorySegment.NULL, PAGES * page, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS,
                -1, 0L)).reinterpret(PAGES * page);
        assertThat(mapping.address()).as("mmap").isNotEqualTo(-1L);
        // No (multi-size) transparent huge pages: one touch must bring in one page.
        assertThat((int) MADVISE.invokeExact(mapping, PAGES * page, MADV_NOHUGEPAGE)).as("madvise").isZero();
    }

    @AfterEach
    void unmap() throws Throwable {
        if (mapping != null) {
            assertThat((int) MUNMAP.invokeExact(mapping, PAGES * page)).as("munmap").isZero();
        }
    }

    @Test
    void aFreshMappingHasNoResidentPageAndEachWrittenPageCountsOnce() throws Exception {
        long start = mapping.address();
        long end = start + PAGES * page;
        assertThat(Pagemap.residentBytes(self, start, end)).isZero();

        long[] touched = {0, 1, 7, 100, 101, 200, 255};
        for (long p : touched) {
            mapping.set(ValueLayout.JAVA_BYTE, p * page + 17, (byte) 1);
            mapping.set(ValueLayout.JAVA_BYTE, p * page + page - 1, (byte) 2); // the same page again
        }

        assertThat(Pagemap.residentBytes(self, start, end)).isEqualTo(touched.length * page);
        assertThat(Pagemap.residentBytes(self, start + page, start + 101 * page)).as("pages 1 to 100").isEqualTo(3 * page);
        assertThat(Pagemap.residentBytes(self, start + 2 * page, start + 7 * page)).as("pages 2 to 6").isZero();
        assertThat(Pagemap.residentBytes(self, start + 7 * page + 1, start + 7 * page + 2)).as("a byte of page 7")
                .isEqualTo(page);
        assertThat(Pagemap.residentBytes(self, start, start)).as("an empty range").isZero();
    }

    /**
     * A read of never-written anonymous memory maps the kernel's shared zero page on most kernels, which
     * neither smaps' {@code Rss} nor pagemap counts; some kernels (seen on a 6.18 host of CI's kind) give each
     * read fault a page of its own instead, which both count. Whichever this kernel does, pagemap must count
     * exactly what smaps counts for the mapping, and the written page in either case.
     */
    @Test
    void readingNeverWrittenMemoryCountsExactlyAsSmapsRssCountsIt() throws Exception {
        long sum = 0;
        for (long p = 0; p < 10; p++) {
            sum += mapping.get(ValueLayout.JAVA_BYTE, p * page);
        }
        mapping.set(ValueLayout.JAVA_BYTE, 20 * page, (byte) 1);

        assertThat(sum).isZero();
        long rss = smapsRss(mapping.address());
        assertThat(rss).as("smaps: the written page, plus the read ones if this kernel gives them pages of their own")
                .isIn(page, 11 * page);
        assertThat(Pagemap.residentBytes(self, mapping.address(), mapping.address() + PAGES * page)).isEqualTo(rss);
    }

    /** The {@code Rss} that {@code /proc/self/smaps} gives the mapping starting at {@code start}, in bytes. */
    private static long smapsRss(long start) throws Exception {
        String header = Long.toHexString(start) + "-";
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(header)) {
                for (int j = i + 1; j < lines.size() && lines.get(j).matches("[A-Z][A-Za-z_]*:.*"); j++) {
                    if (lines.get(j).startsWith("Rss:")) { // "Rss:                  44 kB"
                        return Long.parseLong(lines.get(j).replaceAll("[^0-9]", "")) * 1024;
                    }
                }
            }
        }
        throw new AssertionError("no mapping at 0x" + Long.toHexString(start) + " in /proc/self/smaps");
    }

    @Test
    void theBatchReadGivesEachRangeItsOwnCountInOrder() throws Exception {
        long start = mapping.address();
        for (long p = 0; p < 12; p++) {
            mapping.set(ValueLayout.JAVA_BYTE, p * page, (byte) 1);
        }
        List<AddressRange> ranges = List.of(new AddressRange(start + 10 * page, start + 20 * page),
                new AddressRange(start, start + 4 * page), new AddressRange(start + 100 * page, start + 200 * page),
                new AddressRange(start + 2 * page, start + 12 * page));

        assertThat(Pagemap.residentBytes(self, ranges)).containsExactly(2 * page, 4 * page, 0, 10 * page);
        assertThat(Pagemap.residentBytes(self, List.of())).isEmpty();
    }

    @Test
    void unmappedAddressesAndTheTopOfUserSpaceHaveNoResidentPages() throws Exception {
        assertThat(Pagemap.residentBytes(self, 0, 16 * page)).as("the first pages, never mapped").isZero();
        assertThat(Pagemap.residentBytes(self, 0x7ffffffff000L, 0x800000010000L)).as("across the top of user space").isZero();
    }

    /** A range of more than 8 Ki pages takes several reads; pages on both sides of their boundaries count. */
    @Test
    void aLargeRangeIsReadInPieces() throws Throwable {
        long pages = 80 * 1024;
        MemorySegment large = ((MemorySegment) MMAP.invokeExact(MemorySegment.NULL, pages * page, PROT_READ_WRITE,
                MAP_PRIVATE_ANONYMOUS | MAP_NORESERVE, -1, 0L)).reinterpret(pages * page);
        assertThat(large.address()).as("mmap").isNotEqualTo(-1L);
        try {
            assertThat((int) MADVISE.invokeExact(large, pages * page, MADV_NOHUGEPAGE)).as("madvise").isZero();
            for (long p : new long[] {0, 8191, 8192, 70000, pages - 1}) {
                large.set(ValueLayout.JAVA_BYTE, p * page, (byte) 1);
            }
            long start = large.address();

            assertThat(Pagemap.residentBytes(self, start, start + pages * page)).isEqualTo(5 * page);
            assertThat(Pagemap.residentBytes(self, start + 8191 * page, start + 8193 * page)).isEqualTo(2 * page);
            assertThat(Pagemap.residentBytes(self, start + page, start + (pages - 1) * page)).isEqualTo(3 * page);
        } finally {
            assertThat((int) MUNMAP.invokeExact(large, pages * page)).as("munmap").isZero();
        }
    }

    /**
     * The file ends at the top of user space, so the last read of a range across it comes back short: what was
     * counted below it stays. The main thread's stack lies just below the top.
     */
    @Test
    void aRangeAcrossTheTopOfUserSpaceKeepsWhatLiesBelowIt() throws Exception {
        String stack = Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.endsWith("[stack]")).findFirst()
                .orElseThrow();
        String[] range = stack.substring(0, stack.indexOf(' ')).split("-");
        long stackStart = Long.parseUnsignedLong(range[0], 16);
        long stackEnd = Long.parseUnsignedLong(range[1], 16);
        long beyond = 0x800000000000L + 16 * page;

        long stackResident = Pagemap.residentBytes(self, stackStart, stackEnd);

        assertThat(stackResident).isPositive();
        assertThat(Pagemap.residentBytes(self, stackStart, beyond))
                .isEqualTo(stackResident + Pagemap.residentBytes(self, stackEnd, beyond));
    }

    @Test
    void anExitedProcessIsReportedAsSuch() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();

        assertThatThrownBy(() -> Pagemap.residentBytes(exited.pid(), 0, page))
                .isInstanceOf(InspectException.class).hasMessageContaining("exited");
    }

    @Test
    void thePageSizeIsTheKernels() {
        assertThat(Pagemap.pageSize()).isPositive().satisfies(size -> assertThat(Long.bitCount(size)).isOne());
    }

    private static MethodHandle function(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }
}
