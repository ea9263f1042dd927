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

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** {@code VM.native_memory summary} as JDK 25 prints it. */
class NmtSummaryTest {
    private static final String SUMMARY = """
            1978:

            Native Memory Tracking:

            Total: reserved=7751791KB, committed=494291KB
                   malloc: 27899KB #48949, peak=44961KB #49160
                   mmap:   reserved=7723892KB, committed=466392KB

            -                 Java Heap (reserved=6172672KB, committed=393216KB)
                                        (mmap: reserved=6172672KB, committed=393216KB, at peak)

            -                     Class (reserved=1048789KB, committed=1557KB)
                                        (classes #2999)
                                        (malloc=213KB tag=Class #5066) (at peak)
                                        (mmap: reserved=1048576KB, committed=1344KB, at peak)
                                        (  Metadata:   )
                                        (    reserved=65536KB, committed=8768KB)

            -                    Thread (reserved=19518KB, committed=974KB)
                                        (threads #19)
                                        (stack: reserved=19456KB, committed=912KB, peak=912KB)
                                        (malloc=42KB tag=Thread #115) (peak=50KB #119)
                                        (arena=20KB #34) (peak=785KB #30)

            -                        GC (reserved=158279KB, committed=45399KB)
                                        (malloc=4747KB tag=GC #1517) (peak=4764KB #1480)
                                        (mmap: reserved=153532KB, committed=40652KB, at peak)

            -                  Internal (reserved=1264KB, committed=1264KB)
                                        (malloc=1228KB tag=Internal #2492) (at peak)
                                        (mmap: reserved=36KB, committed=36KB, at peak)

            -    Native Memory Tracking (reserved=874KB, committed=874KB)
                                        (malloc=13KB tag=Native Memory Tracking #226) (at peak)
                                        (tracking overhead=860KB)

            -        Shared class space (reserved=16384KB, committed=13908KB, readonly=0KB)
                                        (mmap: reserved=16384KB, committed=13908KB, peak=14116KB)

            -                 Metaspace (reserved=65576KB, committed=8808KB)
                                        (malloc=40KB tag=Metaspace #15) (at peak)
                                        (mmap: reserved=65536KB, committed=8768KB, at peak)
            """;

    @Test
    void readsMappedStackAndMallocPerCategory() {
        NmtSummary nmt = NmtSummary.parse(SUMMARY);

        assertThat(nmt.categories()).containsKeys("Java Heap", "Class", "Thread", "GC", "Shared class space", "Metaspace");
        assertThat(nmt.threadStacks()).isEqualTo(912L << 10);
        assertThat(nmt.metaspace()).isEqualTo((1344L + 8768) << 10);
        assertThat(nmt.gc()).isEqualTo(40652L << 10);
        assertThat(nmt.otherMapped()).as("Internal only: the CDS archive is a file").isEqualTo(36L << 10);
        assertThat(nmt.mallocTotal()).isEqualTo((213L + 42 + 20 + 4747 + 1228 + 13 + 40) << 10);
    }

    @Test
    void withoutNmtThereIsNoSummary() {
        assertThat(NmtSummary.parse("1977:\nNative memory tracking is not enabled")).isNull();
        assertThat(NmtSummary.parse(null)).isNull();
    }

    @Test
    void readsEachCategoryWhole() {
        NmtSummary nmt = NmtSummary.parse(SUMMARY);

        assertThat(nmt.categories()).containsExactly(
                Map.entry("Java Heap", new NmtSummary.Category(393216L << 10, 393216L << 10, 0, 0)),
                Map.entry("Class", new NmtSummary.Category(1557L << 10, 1344L << 10, 0, 213L << 10)),
                Map.entry("Thread", new NmtSummary.Category(974L << 10, 0, 912L << 10, (42L + 20) << 10)),
                Map.entry("GC", new NmtSummary.Category(45399L << 10, 40652L << 10, 0, 4747L << 10)),
                Map.entry("Internal", new NmtSummary.Category(1264L << 10, 36L << 10, 0, 1228L << 10)),
                Map.entry("Native Memory Tracking", new NmtSummary.Category(874L << 10, 0, 0, 13L << 10)),
                Map.entry("Shared class space", new NmtSummary.Category(13908L << 10, 13908L << 10, 0, 0)),
                Map.entry("Metaspace", new NmtSummary.Category(8808L << 10, 8768L << 10, 0, 40L << 10)));
    }

    /**
     * {@code scale=} prints other units; a category may list several mappings or mallocs on its lines; what comes
     * before the first category (the totals) belongs to none.
     */
    @Test
    void readsEveryUnitAndAddsUpWhatACategoryLists() {
        NmtSummary nmt = NmtSummary.parse("""
                Native Memory Tracking:

                Total: reserved=6GB, committed=400MB
                       (malloc=99MB #1) (mmap: reserved=6GB, committed=372MB)

                -                 Java Heap (reserved=6GB, committed=2GB)
                                            (mmap: reserved=6GB, committed=2GB)

                -                    Thread (reserved=19MB, committed=3MB)
                                            (stack: reserved=19MB, committed=3MB)
                                            (malloc=42KB tag=Thread #115) (arena=20kb #34)

                -                        GC (reserved=150MB, committed=40MB)
                                            (mmap: reserved=146MB, committed=36MB)
                                            (mmap: reserved=4MB, committed=4MB)

                -                     Other (reserved=1264, committed=1264B)
                                            (malloc=1000B #3)
                                            (mmap: reserved=264, committed=264)
                """);

        assertThat(nmt.categories()).containsExactly(
                Map.entry("Java Heap", new NmtSummary.Category(2L << 30, 2L << 30, 0, 0)),
                Map.entry("Thread", new NmtSummary.Category(3L << 20, 0, 3L << 20, 62L << 10)),
                Map.entry("GC", new NmtSummary.Category(40L << 20, 40L << 20, 0, 0)),
                Map.entry("Other", new NmtSummary.Category(1264, 264, 0, 1000)));
        assertThat(nmt.threadStacks()).isEqualTo(3L << 20);
        assertThat(nmt.gc()).isEqualTo(40L << 20);
        assertThat(nmt.metaspace()).as("no Class or Metaspace category").isZero();
        assertThat(nmt.otherMapped()).isEqualTo(264);
        assertThat(nmt.mallocTotal()).isEqualTo((62L << 10) + 1000);
    }

    @Test
    void anUnknownUnitIsRefused() {
        assertThatThrownBy(() -> NmtSummary.parse("""
                Native Memory Tracking:
                -                 Java Heap (reserved=6TB, committed=1TB)
                """)).isInstanceOf(IllegalArgumentException.class).hasMessage("unknown NMT unit TB");
    }

    @Test
    void aSummaryWithoutCategoriesHasNone() {
        NmtSummary nmt = NmtSummary.parse("Native Memory Tracking:\n\nTotal: reserved=1KB, committed=1KB\n");

        assertThat(nmt.categories()).isEmpty();
        assertThat(List.of(nmt.threadStacks(), nmt.metaspace(), nmt.gc(), nmt.otherMapped(), nmt.mallocTotal()))
                .containsOnly(0L);
    }
}
