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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * How many pages of an address range are resident, from {@code /proc/PID/pagemap}: one 64-bit entry per
 * virtual page, bit 63 set when the page is present in RAM (bit 62 when it is swapped out, which does not
 * count). Only the entries of the asked pages are read, in bulk. The kernel zeroes the page frame numbers
 * for readers without {@code CAP_SYS_ADMIN}, but not the flags, so the target's own user can read them.
 *
 * <p>A page counts as smaps counts it in {@code Rss}: present, and either mapped by this process only (bit 56,
 * Linux 4.2+) or a page of a file or of shared memory (bit 61). A read of never-written anonymous memory maps
 * the kernel's one shared zero page, which is present but neither, and which smaps does not count either.
 *
 * <p>This is what smaps cannot give: the resident bytes of part of a mapping. The kernel merges adjacent
 * anonymous mappings with equal permissions, so one mapping of smaps can hold a range the JVM labels (a GC
 * bitmap, a thread stack) and an unlabelled neighbour (a malloc'd chunk); its {@code Rss} counts both.
 * Linux only.
 */
final class Pagemap {
    private static final int ENTRY_BYTES = 8;
    private static final int ENTRIES_PER_READ = 8 * 1024;
    private static final long PRESENT = 1L << 63;
    private static final long FILE_OR_SHARED = 1L << 61;
    private static final long EXCLUSIVE = 1L << 56;
    private static final int AT_PAGESZ = 6;

    private Pagemap() {}

    /** The resident bytes of the pages overlapping {@code [start, end)} in process {@code pid}. */
    static long residentBytes(long pid, long start, long end) throws IOException {
        return residentBytes(pid, List.of(new AddressRange(start, end)))[0];
    }

    /**
     * The resident bytes of each range, in the order given, reading the file once. A page that two ranges
     * share counts in both; a range with no page mapped counts 0.
     */
    static long[] residentBytes(long pid, List<AddressRange> ranges) throws IOException {
        long[] resident = new long[ranges.size()];
        if (ranges.isEmpty()) {
            return resident;
        }
        long pageSize = pageSize();
        Path path = TargetProcess.file(pid, "pagemap");
        try (FileChannel pagemap = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(ENTRIES_PER_READ * ENTRY_BYTES).order(ByteOrder.nativeOrder());
            for (int i = 0; i < ranges.size(); i++) {
                AddressRange range = ranges.get(i);
                long first = Long.divideUnsigned(range.start(), pageSize);
                long last = Long.divideUnsigned(range.end() + pageSize - 1, pageSize);
                resident[i] = presentPages(pagemap, buffer, first, last) * pageSize;
            }
        } catch (NoSuchFileException e) {
            if (Files.isDirectory(Path.of("/proc/self"))) {
                throw InspectException.exited(pid);
            }
            throw new IOException("cannot read " + path + ": there is no /proc (pagemap is Linux only)", e);
        } catch (AccessDeniedException e) {
            throw new IOException("cannot read " + path + ": permission denied (only the target's user or root can read it)", e);
        } catch (IOException e) {
            throw new IOException("cannot read " + path + ": " + e.getMessage(), e);
        }
        return resident;
    }

    /**
     * Pages among {@code [first, last)} that count. One read per chunk: the kernel fills the whole buffer, and
     * stops short only at the top of user space, where the file ends.
     */
    private static long presentPages(FileChannel pagemap, ByteBuffer buffer, long first, long last) throws IOException {
        long present = 0;
        int entries;
        for (long page = first; page < last; page += entries) {
            entries = (int) Math.min(ENTRIES_PER_READ, last - page);
            buffer.clear().limit(entries * ENTRY_BYTES);
            int read = pagemap.read(buffer, page * ENTRY_BYTES);
            buffer.flip();
            while (buffer.remaining() >= ENTRY_BYTES) {
                long entry = buffer.getLong();
                if ((entry & PRESENT) != 0 && (entry & (EXCLUSIVE | FILE_OR_SHARED)) != 0) {
                    present++;
                }
            }
            if (read < entries * ENTRY_BYTES) {
                break;
            }
        }
        return present;
    }

    /** The kernel's page size ({@code AT_PAGESZ} from {@code /proc/self/auxv}), 4096 if that cannot be read. */
    static long pageSize() {
        return PAGE_SIZE;
    }

    private static final long PAGE_SIZE = readPageSize();

    private static long readPageSize() {
        try {
            ByteBuffer auxv = ByteBuffer.wrap(Files.readAllBytes(Path.of("/proc/self/auxv"))).order(ByteOrder.nativeOrder());
            while (auxv.remaining() >= 16) {
                long type = auxv.getLong();
                long value = auxv.getLong();
                if (type == AT_PAGESZ && value > 0) {
                    return value;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or /proc not mounted: the common page size below
        }
        return 4096;
    }
}
