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

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@code jcmd PID System.map} (JDK 25, NMT summary) read into the JVM's labels, and a mapping's label looked up. */
class VmMapTest {
    private static final String SYSTEM_MAP = """
            1475:
            Memory mappings:
            from, to, vsize: address range and size
            vm info:         VM information (requires NMT)
                       CARDTBL: GC Card table
                      JAVAHEAP: Java Heap

            from               to                        vsize prot          rss      hugetlb pgsz notes            info                                  file
            ========================================================================================================================================================================
            0x0000000065000000-0x0000000065001000         4096 ---p         4096            0 4K   com              CDS                                   -
            0x0000000065001000-0x0000000065d95000     14237696 rw-p     13365248            0 4K   com              CDS                                   /usr/lib/jvm/temurin-25-jdk-amd64/lib/server/classes.jsa
            0x00000000FC000000-0x00000000FFE00000     65011712 rw-p       106496            0 4K   com              JAVAHEAP                              -
            0x00005585ed68e000-0x00005585ed6d7000       299008 rw-p        98304            0 4K   com              -                                     [heap]
            0x00007f7b40000000-0x00007f7b40021000       135168 rw-p        24576            0 4K   -                -                                     -
            0x00007f7b47c00000-0x00007f7b47c04000        16384 ---p            0            0 4K   com              STACK-1976-Attach-Listener            -
            0x00007f7b47c04000-0x00007f7b47d00000      1032192 rw-p        90112            0 4K   com,nothp        STACK-1976-Attach-Listener            -
            0x00007f7b60000000-0x00007f7b60020000       131072 rw-p        86016            0 4K   com              -odd                                  -
            """;

    private static final VmMap MAP = VmMap.parse(SYSTEM_MAP);

    @Test
    void readsTheLabelledRangesOnlyByTheirFirstAddress() {
        assertThat(MAP.labels()).containsExactly(
                Map.entry(0x65000000L, Map.entry(0x65001000L, "CDS")),
                Map.entry(0x65001000L, Map.entry(0x65d95000L, "CDS")),
                Map.entry(0xfc000000L, Map.entry(0xffe00000L, "JAVAHEAP")),
                Map.entry(0x7f7b47c00000L, Map.entry(0x7f7b47c04000L, "STACK-1976-Attach-Listener")),
                Map.entry(0x7f7b47c04000L, Map.entry(0x7f7b47d00000L, "STACK-1976-Attach-Listener")),
                Map.entry(0x7f7b60000000L, Map.entry(0x7f7b60020000L, "-odd")));
        assertThat(MAP.isEmpty()).isFalse();
    }

    @Test
    void withoutNmtThereAreNoLabels() {
        VmMap map = VmMap.parse("""
                0x00005585ed68e000-0x00005585ed6d7000       299008 rw-p        98304            0 4K   com              -                                     [heap]
                """);

        assertThat(map.isEmpty()).isTrue();
        assertThat(VmMap.EMPTY.isEmpty()).isTrue();
        assertThat(VmMap.parse("").isEmpty()).isTrue();
    }

    @Test
    void aMappingInsideALabelledRangeHasItsLabelUpToTheFirstDash() {
        assertThat(MAP.label(mapping(0xfc000000L, 0xffe00000L))).isEqualTo("JAVAHEAP");
        assertThat(MAP.label(mapping(0xfc001000L, 0xfc002000L))).isEqualTo("JAVAHEAP");
        assertThat(MAP.label(mapping(0x7f7b47c04000L, 0x7f7b47d00000L))).isEqualTo("STACK");
        assertThat(MAP.label(mapping(0x7f7b60000000L, 0x7f7b60001000L))).as("a dash first is no separator").isEqualTo("-odd");
    }

    @Test
    void aMappingBeyondItsRangeOrOutsideEveryRangeHasNoLabel() {
        assertThat(MAP.label(mapping(0x1000, 0x2000))).as("below the first range").isNull();
        assertThat(MAP.label(mapping(0xfc000000L, 0xffe01000L))).as("past the range's end").isNull();
        assertThat(MAP.label(mapping(0xffe00000L, 0xffe01000L))).as("right after the range").isNull();
        assertThat(MAP.label(mapping(0x7f7b40000000L, 0x7f7b40021000L))).as("an unlabelled range").isNull();
    }

    @Test
    void aRangeSplitsIntoItsLabelledPartsClippedToIt() {
        assertThat(MAP.parts(0x64fff000L, 0x65001800L)).as("across two CDS ranges").containsExactly(
                new VmMap.Part(new AddressRange(0x65000000L, 0x65001000L), "CDS"),
                new VmMap.Part(new AddressRange(0x65001000L, 0x65001800L), "CDS"));
        assertThat(MAP.parts(0x7f7b47c02000L, 0x7f7b50000000L)).as("a stack's end, then nothing labelled").containsExactly(
                new VmMap.Part(new AddressRange(0x7f7b47c02000L, 0x7f7b47c04000L), "STACK"),
                new VmMap.Part(new AddressRange(0x7f7b47c04000L, 0x7f7b47d00000L), "STACK"));
        assertThat(MAP.parts(0xfc000000L, 0xfc000000L)).as("empty").isEmpty();
        assertThat(MAP.parts(0xfc001000L, 0x1000)).as("ending before it starts").isEmpty();
        assertThat(MAP.parts(0xffe00000L, 0x100000000L)).as("right after a range").isEmpty();
        assertThat(MAP.parts(0x1000, 0x2000)).as("below every range").isEmpty();
    }

    @Test
    void theRangesOfALabelIncludeThoseWithADashedSuffix() {
        assertThat(MAP.ranges("STACK")).containsExactly(new AddressRange(0x7f7b47c00000L, 0x7f7b47c04000L),
                new AddressRange(0x7f7b47c04000L, 0x7f7b47d00000L));
        assertThat(MAP.ranges("JAVAHEAP")).containsExactly(new AddressRange(0xfc000000L, 0xffe00000L));
        assertThat(MAP.ranges("GC")).isEmpty();
    }

    @Test
    void twoMapsJoin() {
        VmMap other = new VmMap(new TreeMap<>(Map.of(0x1000L, Map.entry(0x2000L, "META"))));

        VmMap both = MAP.with(other);

        assertThat(both.labels()).hasSize(MAP.labels().size() + 1).containsEntry(0x1000L, Map.entry(0x2000L, "META"));
        assertThat(both.label(mapping(0x1000, 0x2000))).isEqualTo("META");
        assertThat(MAP.labels()).doesNotContainKey(0x1000L);
        assertThat(VmMap.EMPTY.with(VmMap.EMPTY).isEmpty()).isTrue();
    }

    private static Mapping mapping(long start, long end) {
        return new Mapping(start, end, "rw-p", "", 0, 0, 0);
    }
}
