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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
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
    private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024).order(ByteOrder.nativeOrder());
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
        try (FileChannel ch = FileChannel.open(pagemap)) {
            for (long[] vma : writable) {
                for (long page = vma[0] / PAGE; page < vma[1] / PAGE; ) {
                    int n = (int) Math.min(vma[1] / PAGE - page, buffer.capacity() / 8);
                    buffer.clear().limit(n * 8);
                    long at = page * 8;
                    while (buffer.hasRemaining()) {
                        if (ch.read(buffer, at + buffer.position()) < 0) {
                            return -1;
                        }
                    }
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        if (buffer.getLong() < 0) {
                            present++;
                        }
                    }
                    page += n;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return present * PAGE;
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
            String[] f = line.trim().split("\\s+", 6);
            vmas.add(new Vma(Long.parseUnsignedLong(line.substring(0, dash), 16),
                    Long.parseUnsignedLong(line.substring(dash + 1, space), 16), f.length < 6 || f[5].isEmpty(),
                    f.length > 1 && f[1].startsWith("rw")));
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

    private record Vma(long start, long end, boolean anonymous, boolean writable) {}
}
