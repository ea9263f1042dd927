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
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The target's resident memory as the kernel sees it ({@code /proc/PID/smaps}), bytes.
 *
 * <p>The pages inside an {@link OwnedRange} go to its part ({@link #owned}); the rest of each mapping goes to
 * the mapping's {@link MappingKind} ({@link #byKind}). So a part that knows its addresses is exact even where
 * the kernel merged its mapping with a neighbour's, and nothing is counted twice.
 *
 * @param rss resident bytes, the sum over all mappings
 * @param anonymous resident anonymous pages (private memory no file backs)
 * @param fileBacked resident pages of files (the kernel can drop clean ones under pressure)
 * @param sharedMemory resident pages of shared memory (memfd, {@code /dev/shm}, shared anonymous)
 * @param sharedWithOthers resident pages also mapped by another process (libraries, mostly)
 * @param byKind resident bytes per {@link MappingKind}, outside every owned range
 * @param owned resident bytes inside owned ranges, per part
 * @param byOwner resident bytes inside owned ranges, per owner (a pool's {@code type/name}, a JVM label)
 * @param mappings how many mappings
 * @param otherAllocators the allocators besides glibc's malloc: by their libraries' names ({@link #of}), and
 *     linked inside other libraries once {@link #withAllocators} has been given them
 */
record ProcessMemory(long rss, long anonymous, long fileBacked, long sharedMemory, long sharedWithOthers,
        Map<MappingKind, Long> byKind, Map<String, Long> owned, Map<String, Long> byOwner, int mappings,
        List<NativeAllocator> otherAllocators) {

    /** Counts the resident bytes of an address range that covers only part of a mapping. */
    @FunctionalInterface
    interface PageCounter {
        long residentBytes(long start, long end) throws IOException;

        PageCounter NONE = (start, end) -> {
            throw new IOException("no page map to count a partly owned mapping");
        };
    }

    /** The same memory, with the allocators found beside glibc's malloc ({@link NativeAllocators#find}). */
    ProcessMemory withAllocators(List<NativeAllocator> allocators) {
        return new ProcessMemory(rss, anonymous, fileBacked, sharedMemory, sharedWithOthers, byKind, owned, byOwner,
                mappings, List.copyOf(allocators));
    }

    long of(MappingKind kind) {
        return byKind.getOrDefault(kind, 0L);
    }

    long owned(PartName part) {
        return owned.getOrDefault(part.key(), 0L);
    }

    static ProcessMemory of(List<Mapping> mappings, MappingClassifier classifier) {
        return of(mappings, classifier, List.of(), PageCounter.NONE);
    }

    static ProcessMemory of(List<Mapping> mappings, MappingClassifier classifier, List<OwnedRange> ranges,
            PageCounter pages) {
        List<OwnedRange> sorted = disjoint(ranges);
        long rss = 0;
        long anonymous = 0;
        long shmem = 0;
        long shared = 0;
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, 0L);
        }
        Map<String, Long> owned = new LinkedHashMap<>();
        Map<String, Long> byOwner = new LinkedHashMap<>();
        int next = 0;
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            MappingKind kind = classifier.kind(mappings, i);
            while (next < sorted.size() && sorted.get(next).end() <= m.start()) {
                next++;
            }
            long carved = 0;
            for (int r = next; r < sorted.size() && sorted.get(r).start() < m.end(); r++) {
                OwnedRange range = sorted.get(r);
                if (range.anonymousOnly() && !m.isAnonymous() || m.rss() == 0) {
                    continue;
                }
                long bytes = range.covers(m) ? m.rss()
                        : Math.min(m.rss() - carved, count(pages, Math.max(range.start(), m.start()), Math.min(range.end(), m.end())));
                carved += bytes;
                owned.merge(range.part(), bytes, Long::sum);
                byOwner.merge(range.owner(), bytes, Long::sum);
            }
            byKind.merge(kind, m.rss() - carved, Long::sum);
            rss += m.rss();
            anonymous += m.anonymous();
            shared += m.shared();
            if (m.isSharedMapping() && (m.isAnonymous() || kind == MappingKind.SHARED_MEMORY || kind == MappingKind.JAVA_HEAP)) {
                shmem += m.rss();
            }
        }
        return new ProcessMemory(rss, anonymous, Math.max(0, rss - anonymous - shmem), shmem, shared,
                Collections.unmodifiableMap(byKind), Collections.unmodifiableMap(owned),
                Collections.unmodifiableMap(byOwner), mappings.size(), NativeAllocators.byName(mappings));
    }

    private static long count(PageCounter pages, long start, long end) {
        try {
            return pages.residentBytes(start, end);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot count the resident pages of 0x" + Long.toHexString(start) + "-0x"
                    + Long.toHexString(end) + ": " + e.getMessage(), e);
        }
    }

    /**
     * The ranges in address order without overlaps. offheap's own addresses (exact to the page) win first, then
     * other exact ranges (malloc's chunks, found by their headers: a portable pool's block lies inside one),
     * then the JVM's labels, which name whole mappings: the kernel may have merged a pool's mapping with a
     * labelled neighbour. Between ranges of one kind the first to start wins.
     */
    private static List<OwnedRange> disjoint(List<OwnedRange> ranges) {
        List<OwnedRange> result = new ArrayList<>();
        result.addAll(merge(ranges.stream().filter(r -> r.part().equals(PartName.OFFHEAP.key())).toList(), List.of()));
        result.addAll(merge(ranges.stream().filter(r -> !r.anonymousOnly() && !r.part().equals(PartName.OFFHEAP.key())).toList(),
                List.copyOf(result)));
        result.addAll(merge(ranges.stream().filter(OwnedRange::anonymousOnly).toList(), List.copyOf(result)));
        result.sort(Comparator.comparingLong(OwnedRange::start));
        return result;
    }

    /** {@code ranges} sorted, without overlaps among them, with the parts inside any of {@code taken} cut out. */
    private static List<OwnedRange> merge(List<OwnedRange> ranges, List<OwnedRange> takenInAnyOrder) {
        List<OwnedRange> sorted = new ArrayList<>(ranges);
        sorted.sort(Comparator.comparingLong(OwnedRange::start));
        List<OwnedRange> taken = new ArrayList<>(takenInAnyOrder);
        taken.sort(Comparator.comparingLong(OwnedRange::start));
        List<OwnedRange> result = new ArrayList<>();
        long end = Long.MIN_VALUE;
        for (OwnedRange r : sorted) {
            long start = Math.max(r.start(), end);
            if (r.end() <= start) {
                continue;
            }
            end = r.end();
            for (OwnedRange t : taken) {
                if (t.end() <= start || t.start() >= r.end()) {
                    continue;
                }
                if (t.start() > start) {
                    result.add(new OwnedRange(start, t.start(), r.part(), r.owner(), r.anonymousOnly()));
                }
                start = Math.max(start, t.end());
            }
            if (start < r.end()) {
                result.add(new OwnedRange(start, r.end(), r.part(), r.owner(), r.anonymousOnly()));
            }
        }
        return result;
    }
}
