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
import static org.assertj.core.api.Assertions.entry;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@code VM.native_memory detail}'s virtual memory map, recorded from JDK 17 and JDK 25 ({@link Fixtures}). */
class NmtDetailTest {
    private static final long KIB = 1024;
    private static final String JDK17 = Fixtures.read("jdk17-nmt-detail.txt");
    private static final String JDK25 = Fixtures.read("jdk25-nmt-detail.txt");

    @Test
    void jdk17ListsEveryReservedRangeWithItsCategoryAndCommittedParts() {
        NmtDetail detail = NmtDetail.parse(JDK17);

        assertThat(countByCategory(detail)).containsExactly(entry("Class", 1L), entry("Code", 4L), entry("GC", 7L),
                entry("Internal", 2L), entry("Java Heap", 1L), entry("Metaspace", 1L), entry("Safepoint", 1L),
                entry("Shared class space", 1L), entry("Thread Stack", 28L));
        NmtDetail.Region heap = detail.regions().getFirst();
        assertThat(heap).isEqualTo(new NmtDetail.Region(0xf0000000L, 0x100000000L, "Java Heap", List.of(
                new AddressRange(0xf0000000L, 0xf9000000L), new AddressRange(0xfa700000L, 0xfa800000L),
                new AddressRange(0xffe00000L, 0xffe75000L), new AddressRange(0xffe75000L, 0xfff00000L),
                new AddressRange(0xfff00000L, 0xfff78000L), new AddressRange(0xfff78000L, 0x100000000L))));
        assertThat(heap.label()).isEqualTo("JAVAHEAP");
        assertThat(region(detail, 0x7ff118ca7000L)).as("a thread stack: guard zone, then what mincore found resident")
                .isEqualTo(new NmtDetail.Region(0x7ff118ca7000L, 0x7ff118da7000L, "Thread Stack", List.of(
                        new AddressRange(0x7ff118ca7000L, 0x7ff118cab000L), new AddressRange(0x7ff118d85000L, 0x7ff118da7000L))));
        assertThat(region(detail, 0x7ff11a000000L).committed()).as("reserved and committed, its one part listed too")
                .containsExactly(new AddressRange(0x7ff11a000000L, 0x7ff11c000000L));
    }

    @Test
    void jdk25PrintsTheHighestRangeFirstAndTheRegionsAreSortedByAddress() {
        NmtDetail detail = NmtDetail.parse(JDK25);

        assertThat(countByCategory(detail)).containsExactly(entry("Class", 1L), entry("Code", 4L), entry("GC", 5L),
                entry("Internal", 2L), entry("Java Heap", 1L), entry("Metaspace", 1L), entry("Safepoint", 1L),
                entry("Shared class space", 1L), entry("Thread Stack", 27L));
        assertThat(detail.regions().getFirst()).isEqualTo(new NmtDetail.Region(0x80000000L, 0x81000000L, "Shared class space",
                List.of(new AddressRange(0x80000000L, 0x80001000L), new AddressRange(0x80001000L, 0x80d95000L))));
        assertThat(detail.regions().getLast()).isEqualTo(new NmtDetail.Region(0x7fa27ba95000L, 0x7fa27ba96000L, "Internal",
                List.of(new AddressRange(0x7fa27ba95000L, 0x7fa27ba96000L))));
        assertThat(detail.regions()).isSortedAccordingTo((a, b) -> Long.compare(a.start(), b.start()));
        assertThat(region(detail, 0x7fa27b834000L).committed()).as("reserved and committed, no part listed")
                .containsExactly(new AddressRange(0x7fa27b834000L, 0x7fa27b83d000L));
    }

    /** The summary at the top of the same report adds up the same regions: committed thread stacks include guard zones. */
    @Test
    void theCommittedPartsAddUpToTheSummarysMmapFigures() {
        for (String text : List.of(JDK17, JDK25)) {
            NmtDetail detail = NmtDetail.parse(text);
            NmtSummary summary = NmtSummary.parse(text);

            assertThat(detail.committedBytes("STACK")).isEqualTo(summary.threadStacks());
            assertThat(detail.committedBytes("GC")).isEqualTo(summary.gc());
            assertThat(detail.committedBytes("META") + detail.committedBytes("CLASS")).isEqualTo(summary.metaspace());
            assertThat(detail.committedBytes("JAVAHEAP")).isEqualTo(summary.categories().get("Java Heap").mmapCommitted());
            assertThat(detail.committedBytes("CDS")).isEqualTo(summary.categories().get("Shared class space").mmapCommitted());
        }
        NmtDetail jdk17 = NmtDetail.parse(JDK17);
        assertThat(List.of(jdk17.committedBytes("STACK"), jdk17.committedBytes("GC"), jdk17.committedBytes("META"),
                jdk17.committedBytes("CLASS"), jdk17.committedBytes("CODE"))).containsExactly(
                1940 * KIB, 38396 * KIB, 640 * KIB, 128 * KIB, 7548 * KIB);
        NmtDetail jdk25 = NmtDetail.parse(JDK25);
        assertThat(List.of(jdk25.committedBytes("STACK"), jdk25.committedBytes("GC"), jdk25.committedBytes("META"),
                jdk25.committedBytes("CLASS"), jdk25.committedBytes("CODE"))).containsExactly(
                1968 * KIB, 35692 * KIB, 704 * KIB, 128 * KIB, 7548 * KIB);
        assertThat(jdk17.committed("META")).containsExactly(new AddressRange(0x7ff0c7000000L, 0x7ff0c7010000L),
                new AddressRange(0x7ff0c7010000L, 0x7ff0c7090000L), new AddressRange(0x7ff0c7400000L, 0x7ff0c7410000L));
    }

    /**
     * System.map (JDK 25, the same JVM a moment later) labels each mapping of smaps with the NMT regions it
     * touches. The detail report's ranges give every mapping the same labels, and one more where the kernel merged
     * a GC bitmap's last page, two unlabelled megabytes and a code heap's segment map into one mapping:
     * System.map names only the code heap there.
     */
    @Test
    void theLabelsAgreeWithSystemMapOfTheSameJvm() {
        VmMap fromDetail = NmtDetail.parse(JDK25).vmMap();
        Pattern row = Pattern.compile("^0x(\\p{XDigit}+)-0x(\\p{XDigit}+)\\s+\\d+\\s+\\S+\\s+\\d+\\s+\\d+\\s+\\S+\\s+\\S+\\s+(\\S+)");
        int rows = 0;
        int labelled = 0;
        for (String line : Fixtures.read("jdk25-system-map.txt").split("\n")) {
            Matcher m = row.matcher(line);
            if (!m.find()) {
                continue;
            }
            rows++;
            long start = Long.parseUnsignedLong(m.group(1), 16);
            long end = Long.parseUnsignedLong(m.group(2), 16);
            Set<String> systemMap = new HashSet<>();
            for (String label : m.group(3).split(",")) {
                if (!label.equals("-")) {
                    systemMap.add(label.replaceFirst("-.*", ""));
                }
            }
            Set<String> detail = fromDetail.parts(start, end).stream().map(VmMap.Part::label).collect(Collectors.toSet());
            if (start == 0x7fa279a47000L) {
                assertThat(systemMap).containsExactly("CODE");
                assertThat(detail).containsExactlyInAnyOrder("GC", "CODE");
            } else {
                assertThat(detail).as(line).isEqualTo(systemMap);
            }
            labelled += systemMap.isEmpty() ? 0 : 1;
        }
        assertThat(rows).isEqualTo(212);
        assertThat(labelled).isEqualTo(86);
    }

    @Test
    void aMergedMappingSplitsIntoItsLabelledParts() {
        VmMap labels = NmtDetail.parse(JDK25).vmMap();

        assertThat(labels.parts(0x7fa279a47000L, 0x7fa279c4f000L)).containsExactly(
                new VmMap.Part(new AddressRange(0x7fa279a47000L, 0x7fa279a48000L), "GC"),
                new VmMap.Part(new AddressRange(0x7fa279c4a000L, 0x7fa279c4f000L), "CODE"));
        assertThat(labels.label(new Mapping(0x7fa279a47000L, 0x7fa279c4f000L, "rw-p", "", 0, 0, 0))).isNull();
        assertThat(labels.parts(0x1000, 0x2000)).isEmpty();
    }

    @Test
    void neighboursWithTheSameLabelAreOneRangeSoAMappingAcrossThemHasTheLabel() {
        VmMap labels = NmtDetail.parse(JDK17).vmMap();

        assertThat(labels.labels()).contains(entry(0x7ff1290fe000L, Map.entry(0x7ff1291fe000L, "GC")));
        // smaps: 7ff12917d000-7ff1291c6000 rw-p, the last page of one G1 table and the committed start of the next
        assertThat(labels.label(new Mapping(0x7ff12917d000L, 0x7ff1291c6000L, "rw-p", "", 0, 0, 0))).isEqualTo("GC");
        assertThat(labels.ranges("STACK")).as("28 stacks: Java threads' touch (no glibc guard page between them)")
                .hasSize(11).first().isEqualTo(new AddressRange(0x7ff1189a6000L, 0x7ff118aa6000L));
    }

    @Test
    void withoutDetailTrackingThereIsNoMap() {
        assertThat(NmtDetail.parse("12345:\nDetail tracking is not enabled\n")).isNull();
        assertThat(NmtDetail.parse("12345:\nNative memory tracking is not enabled\n")).isNull();
        assertThat(NmtDetail.parse(null)).isNull();
        assertThat(NmtDetail.parse(JDK17.substring(0, JDK17.indexOf("Virtual memory map:")))).as("the summary alone").isNull();
        assertThat(NmtDetail.parse("Virtual memory map:\n\nDetails:\n").regions()).isEmpty();
    }

    @Test
    void onlyTheVirtualMemoryMapIsRead() {
        NmtDetail detail = NmtDetail.parse("""
                [0x0000000000001000 - 0x0000000000002000] reserved 4KB for GC from
                Virtual memory map:

                [0x0000000000010000 - 0x0000000000020000] reserved 64KB for Thread Stack from
                    [0x00007f0000000001]thread_native_entry(Thread*)+0xe3

                \t[0x0000000000018000 - 0x0000000000020000] committed 32KB\s
                [0x0000000000020000 - 0x0000000000030000] reserved 1MB for Native Memory Tracking\s
                [0x0000000000030000 - 0x0000000000031000] reserved and committed 4096B for Tracing
                Memory file details

                [0x0000000000000000 - 0x0000000017a00000] allocated 387072KB for Java Heap from
                [0x0000000000040000 - 0x0000000000050000] reserved 64KB for GC from
                """);

        assertThat(detail.regions()).containsExactly(
                new NmtDetail.Region(0x10000, 0x20000, "Thread Stack", List.of(new AddressRange(0x18000, 0x20000))),
                new NmtDetail.Region(0x20000, 0x30000, "Native Memory Tracking", List.of()),
                new NmtDetail.Region(0x30000, 0x31000, "Tracing", List.of(new AddressRange(0x30000, 0x31000))));
    }

    @Test
    void nmtCategoriesGetSystemMapsLabels() {
        Map<String, String> labels = new TreeMap<>();
        for (String category : List.of("Java Heap", "Class", "Metaspace", "Shared class space", "Code", "GC", "GCCardSet",
                "Thread Stack", "Internal", "Other", "Safepoint", "Test", "Symbol", "Native Memory Tracking")) {
            labels.put(category, NmtDetail.label(category));
        }

        assertThat(labels).containsExactly(entry("Class", "CLASS"), entry("Code", "CODE"), entry("GC", "GC"),
                entry("GCCardSet", "CARDTBL"), entry("Internal", "INTERN"), entry("Java Heap", "JAVAHEAP"),
                entry("Metaspace", "META"), entry("Native Memory Tracking", "Native Memory Tracking"), entry("Other", "JDK"),
                entry("Safepoint", "POLL"), entry("Shared class space", "CDS"), entry("Symbol", "Symbol"),
                entry("Test", "TEST"), entry("Thread Stack", "STACK"));
    }

    private static Map<String, Long> countByCategory(NmtDetail detail) {
        return detail.regions().stream().collect(Collectors.groupingBy(NmtDetail.Region::category, TreeMap::new,
                Collectors.counting()));
    }

    private static NmtDetail.Region region(NmtDetail detail, long start) {
        return detail.regions().stream().filter(r -> r.start() == start).findFirst().orElseThrow();
    }
}
