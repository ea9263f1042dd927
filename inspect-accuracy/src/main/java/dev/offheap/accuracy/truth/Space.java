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

package dev.offheap.accuracy.truth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A process's address space at one moment: its mappings, which of their pages are resident (bit 63 of each
 * page's entry in {@code /proc/PID/pagemap}: present in RAM; readable by the process's owner, the page frame
 * numbers are hidden without CAP_SYS_ADMIN but the flag is not), and which pages a category has claimed.
 *
 * <p>Categories claim address ranges in order; a page belongs to the first category that claims it, so the
 * categories never overlap and what no category claims is left over ({@link #residual}).
 */
final class Space {
    static final int PAGE = 4096;

    private final List<Vma> vmas;
    private final BitSet[] present;
    private final BitSet[] owned;
    private final Map<String, Long> claimed = new LinkedHashMap<>();
    private final long presentBytes;
    private final long smapsRss;

    private Space(List<Vma> vmas, BitSet[] present, long presentBytes, long smapsRss) {
        this.vmas = vmas;
        this.present = present;
        this.owned = new BitSet[vmas.size()];
        for (int i = 0; i < owned.length; i++) {
            owned[i] = new BitSet();
        }
        this.presentBytes = presentBytes;
        this.smapsRss = smapsRss;
    }

    /** Reads the mappings' present bits; mappings the kernel counts no resident page in are not read. */
    static Space read(long pid, List<Vma> all) throws IOException {
        // [vsyscall] lies above user space (a negative address as a signed long): kept out, its Rss counted
        List<Vma> vmas = all.stream().filter(Vma::user).toList();
        long smaps = all.stream().filter(v -> !v.user()).mapToLong(Vma::rss).sum();
        BitSet[] present = new BitSet[vmas.size()];
        long total = 0;
        try (FileChannel pagemap = FileChannel.open(Path.of("/proc", Long.toString(pid), "pagemap"),
                StandardOpenOption.READ)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(8 * 16384).order(ByteOrder.nativeOrder());
            for (int i = 0; i < vmas.size(); i++) {
                Vma v = vmas.get(i);
                smaps += v.rss();
                BitSet bits = new BitSet();
                present[i] = bits;
                if (v.rss() == 0 || !v.user() || v.kernel()) {
                    continue;
                }
                long pages = v.size() / PAGE;
                long page = 0;
                while (page < pages) {
                    int n = (int) Math.min(pages - page, 16384);
                    buffer.clear().limit(n * 8);
                    long position = (v.start() / PAGE + page) * 8;
                    while (buffer.hasRemaining()) {
                        if (pagemap.read(buffer, position + buffer.position()) < 0) {
                            break;
                        }
                    }
                    buffer.flip();
                    for (int j = 0; buffer.remaining() >= 8; j++) {
                        if (buffer.getLong() < 0) { // bit 63: present
                            bits.set((int) (page + j));
                        }
                    }
                    page += n;
                }
                total += (long) bits.cardinality() * PAGE;
            }
        }
        return new Space(vmas, present, total, smaps);
    }

    List<Vma> vmas() {
        return vmas;
    }

    /** Resident bytes by pagemap, over all mappings. */
    long presentBytes() {
        return presentBytes;
    }

    /** The sum of smaps' Rss fields. */
    long smapsRss() {
        return smapsRss;
    }

    Map<String, Long> claimed() {
        return claimed;
    }

    /** Claims the range for the category; returns the resident bytes no earlier category had. */
    long claim(long from, long to, String category) {
        long bytes = 0;
        for (int i = firstEndingAfter(from); i < vmas.size() && vmas.get(i).start() < to; i++) {
            Vma v = vmas.get(i);
            int p0 = (int) ((Math.max(from, v.start()) - v.start()) / PAGE);
            int p1 = (int) ((Math.min(to, v.end()) - v.start() + PAGE - 1) / PAGE);
            if (p0 >= p1) {
                continue;
            }
            BitSet mine = present[i].get(p0, p1);
            mine.andNot(owned[i].get(p0, p1));
            bytes += (long) mine.cardinality() * PAGE;
            owned[i].set(p0, p1);
        }
        claimed.merge(category, bytes, Long::sum);
        return bytes;
    }

    /** Resident bytes in the range, claimed or not (for comparing sources). */
    long present(long from, long to) {
        long bytes = 0;
        for (int i = firstEndingAfter(from); i < vmas.size() && vmas.get(i).start() < to; i++) {
            Vma v = vmas.get(i);
            int p0 = (int) ((Math.max(from, v.start()) - v.start()) / PAGE);
            int p1 = (int) ((Math.min(to, v.end()) - v.start() + PAGE - 1) / PAGE);
            if (p0 < p1) {
                bytes += (long) present[i].get(p0, p1).cardinality() * PAGE;
            }
        }
        return bytes;
    }

    boolean isPresent(long address) {
        int i = indexOf(address);
        return i >= 0 && present[i].get((int) ((address - vmas.get(i).start()) / PAGE));
    }

    boolean isOwned(long address) {
        int i = indexOf(address);
        return i >= 0 && owned[i].get((int) ((address - vmas.get(i).start()) / PAGE));
    }

    /** The mapping holding the address, or null. */
    Vma vmaAt(long address) {
        int i = indexOf(address);
        return i < 0 ? null : vmas.get(i);
    }

    /**
     * Address runs no category owns yet, inside mappings the filter accepts; adjacent mappings that the
     * filter accepts join into one run (the kernel splits a mapping when part of it changes protection).
     */
    List<long[]> unownedRuns(Predicate<Vma> filter) {
        List<long[]> runs = new ArrayList<>();
        for (int i = 0; i < vmas.size(); i++) {
            Vma v = vmas.get(i);
            if (!filter.test(v) || !v.user()) {
                continue;
            }
            int pages = (int) (v.size() / PAGE);
            for (int p = owned[i].nextClearBit(0); p < pages; ) {
                int q = owned[i].nextSetBit(p);
                int end = q < 0 || q > pages ? pages : q;
                long from = v.start() + (long) p * PAGE;
                long to = v.start() + (long) end * PAGE;
                long[] last = runs.isEmpty() ? null : runs.get(runs.size() - 1);
                if (last != null && last[1] == from) {
                    last[1] = to;
                } else {
                    runs.add(new long[] {from, to});
                }
                if (end >= pages) {
                    break;
                }
                p = owned[i].nextClearBit(end);
            }
        }
        return runs;
    }

    /** Resident pages no category claimed, per mapping that has any, largest first. */
    List<Map<String, Object>> residual(Predicate<Vma> filter) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < vmas.size(); i++) {
            Vma v = vmas.get(i);
            if (!filter.test(v)) {
                continue;
            }
            BitSet left = (BitSet) present[i].clone();
            left.andNot(owned[i]);
            if (left.isEmpty()) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("range", v.range());
            m.put("perms", v.perms());
            m.put("path", v.path());
            m.put("size", v.size());
            m.put("resident", (long) left.cardinality() * PAGE);
            out.add(m);
        }
        out.sort((a, b) -> Long.compare((Long) b.get("resident"), (Long) a.get("resident")));
        return out;
    }

    /** Resident bytes no category has claimed. */
    long unclaimedPresent() {
        long bytes = 0;
        for (int i = 0; i < vmas.size(); i++) {
            BitSet left = (BitSet) present[i].clone();
            left.andNot(owned[i]);
            bytes += (long) left.cardinality() * PAGE;
        }
        return bytes;
    }

    /** Claims every resident page no category has claimed yet, in mappings the filter accepts. */
    long claimRest(Predicate<Vma> filter, String category) {
        long bytes = 0;
        for (Vma v : vmas) {
            if (filter.test(v)) {
                bytes += claim(v.start(), v.end(), category);
            }
        }
        claimed.merge(category, 0L, Long::sum);
        return bytes;
    }

    private int indexOf(long address) {
        int i = firstEndingAfter(address);
        return i < vmas.size() && vmas.get(i).contains(address) ? i : -1;
    }

    /** The first mapping whose end lies after the address (binary search; the mappings are sorted). */
    private int firstEndingAfter(long address) {
        int lo = 0;
        int hi = vmas.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(vmas.get(mid).end(), address) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
