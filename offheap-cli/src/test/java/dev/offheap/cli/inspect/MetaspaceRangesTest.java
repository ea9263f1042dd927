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

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metaspace's and class space's ranges without NMT, from outputs recorded on JDK 17 and JDK 25 ({@link Fixtures}). */
class MetaspaceRangesTest {

    @Test
    void theVirtualSpaceListGivesEachNodeOfBothSpaces() {
        assertThat(MetaspaceRanges.fromVirtualSpaceList(Fixtures.read("jdk17-metaspace-vslist.txt")).labels()).containsExactly(
                entry(0x7ff0c7000000L, Map.entry(0x7ff0cb000000L, "META")),
                entry(0x7ff0cc000000L, Map.entry(0x7ff10c000000L, "CLASS")));
        assertThat(MetaspaceRanges.fromVirtualSpaceList(Fixtures.read("jdk25-metaspace-vslist.txt")).labels()).containsExactly(
                entry(0x81000000L, Map.entry(0xc1000000L, "CLASS")),
                entry(0x7fa23c000000L, Map.entry(0x7fa240000000L, "META")));
    }

    @Test
    void vmInfoGivesClassSpaceAndTheCdsArchive() {
        assertThat(MetaspaceRanges.fromVmInfo(Fixtures.read("jdk17-vm-info-head.txt")).labels()).containsExactly(
                entry(0x7ff0cb000000L, Map.entry(0x7ff0cbbc7000L, "CDS")),
                entry(0x7ff0cc000000L, Map.entry(0x7ff10c000000L, "CLASS")));
        assertThat(MetaspaceRanges.fromVmInfo(Fixtures.read("jdk25-vm-info-head.txt")).labels()).containsExactly(
                entry(0x80000000L, Map.entry(0x80d95000L, "CDS")),
                entry(0x81000000L, Map.entry(0xc1000000L, "CLASS")));
    }

    /** The same JVM's NMT detail report has the same ranges. */
    @Test
    void theRangesAreNmtsRegions() {
        for (String jdk : List.of("jdk17", "jdk25")) {
            NmtDetail nmt = NmtDetail.parse(Fixtures.read(jdk + "-nmt-detail.txt"));
            VmMap vslist = MetaspaceRanges.fromVirtualSpaceList(Fixtures.read(jdk + "-metaspace-vslist.txt"));
            VmMap vmInfo = MetaspaceRanges.fromVmInfo(Fixtures.read(jdk + "-vm-info-head.txt"));
            for (String label : List.of("META", "CLASS")) {
                assertThat(vslist.ranges(label)).as(jdk + " " + label).isEqualTo(nmt.vmMap().ranges(label));
            }
            assertThat(vmInfo.ranges("CLASS")).as(jdk).isEqualTo(nmt.vmMap().ranges("CLASS"));
            AddressRange cds = vmInfo.ranges("CDS").getFirst();
            AddressRange nmtCds = nmt.vmMap().ranges("CDS").getFirst();
            assertThat(cds.start()).as(jdk + " CDS").isEqualTo(nmtCds.start());
            assertThat(cds.end()).as(jdk + " CDS: the archive, NMT's region reserves more").isLessThan(nmtCds.end());
        }
    }

    /**
     * Without NMT, the ranges make metaspace's mappings count as their resident pages, as NMT's labels do: 692 and
     * 708 KiB, where NMT says 768 and 832 KiB committed.
     */
    @Test
    void metaspaceCountsAsItsResidentPagesWithoutNmt() {
        Map<String, Long> expected = Map.of("jdk17", 692 * 1024L, "jdk25", 708 * 1024L);
        for (String jdk : List.of("jdk17", "jdk25")) {
            List<Mapping> mappings = Smaps.parse(Fixtures.read(jdk + "-smaps.txt"));
            VmMap ranges = MetaspaceRanges.fromVirtualSpaceList(Fixtures.read(jdk + "-metaspace-vslist.txt"))
                    .with(MetaspaceRanges.fromVmInfo(Fixtures.read(jdk + "-vm-info-head.txt")));
            VmMap nmt = NmtDetail.parse(Fixtures.read(jdk + "-nmt-detail.txt")).vmMap();

            MappingClassifier classifier = new MappingClassifier(List.of(), List.of(), null);
            long withoutNmt = ProcessMemory.of(mappings, classifier, ranges.ranges(), (start, end) -> {
                throw new AssertionError("every metaspace range covers whole mappings");
            }).owned(PartName.METASPACE);
            long withNmt = ProcessMemory.of(mappings, classifier, nmt.ranges(), (start, end) -> 0).owned(PartName.METASPACE);

            assertThat(withoutNmt).as(jdk).isEqualTo(withNmt).isEqualTo(expected.get(jdk));
        }
    }

    @Test
    void nothingPrintedNoRanges() {
        assertThat(MetaspaceRanges.fromVmInfo(null).isEmpty()).isTrue();
        assertThat(MetaspaceRanges.fromVirtualSpaceList(null).isEmpty()).isTrue();
        assertThat(MetaspaceRanges.fromVmInfo("12345:\nHeap address: 0x00000000f0000000, size: 256 MB\n").isEmpty()).isTrue();
        assertThat(MetaspaceRanges.fromVirtualSpaceList("- node #0: base 0x00007ff0c7000000: reserved=64.00 MB\n").isEmpty())
                .as("a node outside any list").isTrue();
        assertThat(MetaspaceRanges.fromVirtualSpaceList("vsl non-class-space:\n- node #0: base 0x0000000000100000: reserved=1.50 MB,\n")
                .labels()).containsExactly(entry(0x100000L, Map.entry(0x280000L, "META")));
    }
}
