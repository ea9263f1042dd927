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

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Owned ranges carved out of smaps' mappings: exact where a range covers a mapping, page counts where it does not. */
class ProcessMemoryTest {
    private static final long KIB = 1024;
    private static final long MIB = KIB * KIB;
    private static final MappingClassifier CLASSIFIER = new MappingClassifier(List.of(), List.of(), "/opt/jdk");

    @Test
    void aRangeCoveringAMappingTakesItsRssAndOnePartlyInsideCountsItsPages() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x200000, MIB), anon(0x200000, 0x600000, 3 * MIB));
        List<long[]> asked = new ArrayList<>();

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER,
                List.of(new OwnedRange(0x100000, 0x300000, "offheap", "BufferPool/http", false)),
                (start, end) -> {
                    asked.add(new long[] {start, end});
                    return 256 * KIB;
                });

        assertThat(memory.owned(PartName.OFFHEAP)).isEqualTo(MIB + 256 * KIB);
        assertThat(memory.byOwner()).containsEntry("BufferPool/http", MIB + 256 * KIB);
        assertThat(memory.of(MappingKind.ANONYMOUS)).isEqualTo(3 * MIB - 256 * KIB);
        assertThat(asked).containsExactly(new long[] {0x200000, 0x300000});
        assertThat(memory.rss()).isEqualTo(4 * MIB);
    }

    /** The kernel merged a pool's mapping with a labelled neighbour: System.map labels the whole mapping. */
    @Test
    void aPoolsOwnAddressesWinOverALabelThatNamesTheWholeMapping() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x500000, 4 * MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER, List.of(
                new OwnedRange(0x100000, 0x500000, "gc", "GC", true),
                new OwnedRange(0x200000, 0x400000, "offheap", "BufferPool/http", false)),
                (start, end) -> end - start);

        assertThat(memory.owned(PartName.OFFHEAP)).isEqualTo(2 * MIB);
        assertThat(memory.owned(PartName.GC)).isEqualTo(2 * MIB);
    }

    @Test
    void aLabelCountsOnlyAnonymousMappingsAndNeverMoreThanTheMappingHolds() {
        List<Mapping> mappings = List.of(new Mapping(0x100000, 0x200000, "r--p", "/opt/jdk/lib/server/classes.jsa",
                MIB, 0, 0), anon(0x200000, 0x400000, MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER,
                List.of(new OwnedRange(0x100000, 0x300000, "metaspace", "CDS", true),
                        new OwnedRange(0x300000, 0x400000, "metaspace", "META", true)),
                (start, end) -> MIB);

        assertThat(memory.owned(PartName.METASPACE)).isEqualTo(MIB);
        assertThat(memory.of(MappingKind.PROGRAM_FILE)).isEqualTo(MIB);
        assertThat(memory.of(MappingKind.ANONYMOUS)).isZero();
    }

    private static Mapping anon(long start, long end, long rss) {
        return new Mapping(start, end, "rw-p", "", rss, rss, 0);
    }

    @Test
    void theTotalsCountEachMappingOnceAndFindAnotherAllocator() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x600000, 4 * MIB),
                new Mapping(0x600000, 0x800000, "r-xp", "/usr/lib/libc.so.6", 2 * MIB, 0, 2 * MIB),
                new Mapping(0x800000, 0x900000, "rw-s", "", MIB, 0, 0),
                new Mapping(0x900000, 0xc00000, "rw-s", "/memfd:cache (deleted)", 3 * MIB, 0, 0),
                new Mapping(0xc00000, 0xd00000, "r-xp", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", MIB, 0, 0));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER);

        assertThat(memory.rss()).isEqualTo(11 * MIB);
        assertThat(memory.anonymous()).isEqualTo(4 * MIB);
        assertThat(memory.sharedMemory()).isEqualTo(4 * MIB);
        assertThat(memory.fileBacked()).isEqualTo(3 * MIB);
        assertThat(memory.sharedWithOthers()).isEqualTo(2 * MIB);
        assertThat(memory.mappings()).isEqualTo(5);
        assertThat(memory.otherAllocators())
                .containsExactly(new NativeAllocator("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", false));
        assertThat(memory.of(MappingKind.SHARED_MEMORY)).isEqualTo(3 * MIB);
    }

    @Test
    void aMappingWithoutResidentPagesAsksForNone() {
        ProcessMemory memory = ProcessMemory.of(List.of(anon(0x100000, 0x500000, 0)), CLASSIFIER,
                List.of(new OwnedRange(0x200000, 0x300000, "offheap", "BufferPool/a", false)), (start, end) -> {
                    throw new AssertionError("asked for pages of a mapping with none resident");
                });

        assertThat(memory.owned(PartName.OFFHEAP)).isZero();
        assertThat(memory.byOwner()).isEmpty();
    }

    /** Given in any order: each range its own pages, one that ends where the mapping starts none. */
    @Test
    void rangesInAnyOrderEachTakeTheirOwnPagesAndTouchingIsNotOverlapping() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x500000, 4 * MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER, List.of(
                new OwnedRange(0x300000, 0x500000, "gc", "GC", true),
                new OwnedRange(0x80000, 0x100000, "otherJvm", "INTERN", true),
                new OwnedRange(0x100000, 0x300000, "metaspace", "META", true)),
                (start, end) -> (end - start) / 2);

        assertThat(memory.owned()).containsExactly(java.util.Map.entry("metaspace", MIB), java.util.Map.entry("gc", MIB));
        assertThat(memory.of(MappingKind.ANONYMOUS)).isEqualTo(2 * MIB);
    }

    /** offheap's addresses first, then malloc's chunks, then the JVM's labels, whatever order they come in. */
    @Test
    void offheapWinsOverAChunkWhichWinsOverALabel() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x900000, 8 * MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER, List.of(
                new OwnedRange(0x100000, 0x900000, "otherJvm", "JDK", true),
                new OwnedRange(0x200000, 0x800000, "malloc", "malloc chunks", false),
                new OwnedRange(0x400000, 0x600000, "offheap", "ChunkPool/portable", false)),
                (start, end) -> end - start);

        assertThat(memory.owned(PartName.OFFHEAP)).isEqualTo(2 * MIB);
        assertThat(memory.owned(PartName.MALLOC)).isEqualTo(4 * MIB);
        assertThat(memory.owned(PartName.OTHER_JVM)).isEqualTo(2 * MIB);
        assertThat(memory.byOwner()).containsEntry("ChunkPool/portable", 2 * MIB).containsEntry("malloc chunks", 4 * MIB)
                .containsEntry("JDK", 2 * MIB);
    }
}
