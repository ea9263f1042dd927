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

import java.io.IOException;
import java.nio.ByteOrder;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How much of the committed heap is resident. A committed heap is not all resident (G1 commits regions it has not
 * touched yet), and taking committed for resident would hide native growth behind the heap for as long as the
 * heap is not all touched. The heap's range is found in {@code /proc/self/maps} as the run of anonymous mappings,
 * holes allowed, that starts and ends at a mapping's edge and spans exactly {@code MaxHeapSize} (Serial, Parallel,
 * G1, Shenandoah; not ZGC, whose heap is mapped several times over a larger range); its readable pages are then
 * counted present in {@code /proc/self/pagemap} (bit 63). That read is proportional to the committed heap
 * (2 MiB of pagemap per GiB), so it is done again only when the committed size changes or every
 * {@value #RESCAN_EVERY} samples: resident heap moves between committed changes only as untouched regions get
 * touched. Where the range is not found, or pagemap cannot be read, the committed size stands in and
 * {@link #exact()} says so.
 */
final class HeapResidency {
    static final int RESCAN_EVERY = 12;
    private static final int PAGE = 4096;
    private final Path maps;
    private final Path pagemap;
    private final long maxHeap;
    /** Where bit 63 of an entry (present) is: its last byte on a little-endian machine. */
    private static final int PRESENT_BYTE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? 7 : 0;
    private final byte[] chunk = new byte[64 * 1024];
    private long rangeStart = -1;
    private long rangeEnd = -1;
    private boolean found;
    private long lastCommitted = -1;
    private long lastResident = -1;
    private int sinceScan;

    HeapResidency(Path procSelf, long maxHeap) {
        this.maps = procSelf.resolve("maps");
        this.pagemap = procSelf.resolve("pagemap");
        this.maxHeap = maxHeap;
    }

    /** @return whether the last figure was counted from the heap's pages */
    boolean exact() {
        return found && lastResident >= 0;
    }

    /** @return resident bytes of the heap, at most {@code committed}; {@code committed} when it cannot be counted */
    long resident(long committed) {
        if (committed != lastCommitted || sinceScan >= RESCAN_EVERY) {
            lastCommitted = committed;
            sinceScan = 0;
            lastResident = scan();
        }
        sinceScan++;
        return lastResident < 0 ? committed : Math.min(committed, lastResident);
    }

    private long scan() {
        List<long[]> writable;
        try {
            writable = writableInHeap(Files.readAllLines(maps));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        if (writable == null) {
            return -1;
        }
        long present = 0;
        try (RandomAccessFile file = new RandomAccessFile(pagemap.toFile(), "r")) {
            for (long[] vma : writable) {
                for (long page = vma[0] / PAGE; page < vma[1] / PAGE; ) {
                    int n = (int) Math.min(vma[1] / PAGE - page, chunk.length / 8);
                    file.seek(page * 8);
                    file.readFully(chunk, 0, n * 8);
                    present += present(chunk, n * 8);
                    page += n;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return present * PAGE;
    }

    /**
     * The entries in {@code bytes} whose bit 63 is set. A loop this small is what the JIT compiles when a heap's
     * pagemap makes it hot: reading the entries as longs through a ByteBuffer made C2 inline the buffer's code, and
     * that one compilation held 7 MiB of arenas, which glibc kept.
     */
    static int present(byte[] bytes, int length) {
        int count = 0;
        for (int i = PRESENT_BYTE; i < length; i += 8) {
            count += (bytes[i] >>> 7) & 1;
        }
        return count;
    }

    /** The writable anonymous mappings inside the heap's range, or null when the range is not found. */
    List<long[]> writableInHeap(List<String> lines) {
        List<Vma> vmas = new ArrayList<>();
        for (String line : lines) {
            int dash = line.indexOf('-');
            int space = line.indexOf(' ');
            if (dash < 0 || space < dash) {
                continue;
            }
            vmas.add(new Vma(Long.parseUnsignedLong(line.substring(0, dash), 16),
                    Long.parseUnsignedLong(line.substring(dash + 1, space), 16), path(line).isEmpty(),
                    line.startsWith("rw", space + 1)));
        }
        if (!found) {
            // the first anonymous mapping from which anonymous mappings reach exactly MaxHeapSize further (files
            // inside allowed: CDS maps its archived heap objects from the archive into the heap's range)
            for (int i = 0; i < vmas.size() && !found; i++) {
                if (!vmas.get(i).anonymous()) {
                    continue;
                }
                long end = vmas.get(i).start() + maxHeap;
                for (int j = i; j < vmas.size() && vmas.get(j).end() <= end; j++) {
                    if (vmas.get(j).end() == end && vmas.get(j).anonymous()) {
                        rangeStart = vmas.get(i).start();
                        rangeEnd = end;
                        found = true;
                        break;
                    }
                }
            }
            if (!found) {
                return null;
            }
        }
        List<long[]> writable = new ArrayList<>();
        for (Vma v : vmas) {
            if (v.anonymous() && v.writable() && v.start() >= rangeStart && v.end() <= rangeEnd) {
                writable.add(new long[] {v.start(), v.end()});
            }
        }
        return writable;
    }

    /** The sixth field of a maps line (its path), empty for anonymous memory; no regex: the recorder loads little. */
    static String path(String line) {
        int field = 0;
        int i = 0;
        int n = line.length();
        while (i < n && field < 5) {
            while (i < n && line.charAt(i) != ' ') {
                i++;
            }
            while (i < n && line.charAt(i) == ' ') {
                i++;
            }
            field++;
        }
        return line.substring(i).trim();
    }

    private record Vma(long start, long end, boolean anonymous, boolean writable) {}
}
