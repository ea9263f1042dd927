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

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The tables for people, line by line, for hand-made samples: the second look of watch mode (changes beside each
 * figure, capped claims, NMT, malloc, offheap's pools and budgets) and a first look at a bare JVM.
 */
class TableReportTest {

    @Test
    void aSampleInWatchModeShowsEveryFigureAndItsChange() {
        String report = TableReport.of(ReportSamples.previous(), ReportSamples.now(),
                List.of(Finding.info("first", "first finding"), Finding.critical("second", "second, 100 % sure")));

        assertThat(report).isEqualTo("""
                offheap inspect 4194305 (?), OpenJDK 64-Bit Server VM 25+36-LTS, 4 CPUs, 2025-03-04T05:06:07Z

                Resident memory (RSS) 500.0 MiB (+20.0 MiB): anonymous 400.0 MiB, file-backed 75.0 MiB, shared memory 25.0 MiB (30.0 MiB also mapped by other processes)
                  by mapping kind (321 mappings):
                    Java heap                                      250.0 MiB
                    code cache                                      15.0 MiB
                    thread stacks                                    5.0 MiB
                    brk heap (malloc's main arena)                  30.0 MiB
                    other anonymous                                100.0 MiB
                    program files (JDK, libraries, jars)            50.0 MiB
                    data files (mapped buffers, spill files)        25.0 MiB
                    shared memory (memfd, /dev/shm)                 25.0 MiB
                    kernel ([vdso], [vvar])                          8.0 KiB

                Where RSS goes                  resident   share       change  from
                  Java heap                    250.0 MiB   50.0%    +10.0 MiB  smaps in the heap's range
                  code cache                    15.0 MiB    3.0%         +0 B  smaps in the code heaps
                  program files                 50.0 MiB   10.0%         +0 B  smaps, libraries and jars
                  mapped files                  25.0 MiB    5.0%         +0 B  smaps, other files
                  thread stacks                  5.0 MiB    1.0%         +0 B  smaps, guard-page layout
                  metaspace                     20.0 MiB    4.0%         +0 B  NMT Class + Metaspace mmap committed
                  GC structures                 10.0 MiB    2.0%    +10.0 MiB  NMT GC mmap committed
                  other JVM mappings             5.0 MiB    1.0%         +0 B  NMT other categories' mmap committed
                  offheap pools                 60.0 MiB   12.0%         +0 B  dev.offheap MBeans BytesFromOs
                  malloc (glibc)                35.0 MiB    7.0%     -5.0 MiB  malloc_info, held less top chunks (at most 45.0 MiB)
                  unexplained                   25.0 MiB    5.0%     +5.0 MiB  RSS minus the parts above

                JVM
                  heap        120.0 MiB used, 256.0 MiB committed, 250.0 MiB resident, max 1.0 GiB
                  metaspace   19.0 MiB used, 21.0 MiB committed
                  code cache  16.0 MiB committed, 15.0 MiB resident
                  threads     31 platform (the JVM's own included), stacks 5.0 MiB resident
                  virtual     100000 threads, their stacks 177.7 MiB in the heap (GC.class_histogram -all: ended ones not yet collected included)
                  NMT         summary, committed: GC structures 10.0 MiB, other JVM mappings 5.0 MiB, malloc'd by the JVM 3.5 MiB (inside malloc below)

                JDK buffer pools
                  direct      12 buffers (+4), 3.0 MiB capacity, 3.5 MiB memory (malloc'd), limit 512.0 MiB
                              per second over 1000 ms: 3 created (3.0 MiB), 1 freed (1.0 MiB)
                              FFM arenas (and Netty 4.2's pooled memory on JDK 24+) are not direct buffers: their memory counts in malloc
                  mapped      2 buffers, 24.0 MiB capacity; data files 25.0 MiB resident

                malloc (glibc's malloc_info, through System.native_heap_info)
                  in use 38.0 MiB (of which direct buffers 3.5 MiB), free 10.0 MiB (25.0 %), top chunks 3.0 MiB, 3 arenas, 5 chunks mapped on their own (8.0 MiB)
                  fragmentation 21.1 % (free but not returnable / all not returnable, over the arenas)
                  other allocator: jemalloc linked into /opt/app/libengine.so (found by its own messages in the file)

                offheap
                  BufferPool http "edge"      resident 60.0 MiB of 64.0 MiB reserved, from OS 60.0 MiB, in use 40.0 MiB, cached 20.0 MiB, peak 64.0 MiB, limit none, leaks 0
                  ChunkPool  cache            resident 0 B of 0 B reserved, from OS 0 B, in use 0 B, cached 0 B, peak 0 B, limit 256.0 MiB, leaks 2
                  MemoryBudget /app/cache       used 100.0 MiB, peak 120.0 MiB, limit 1.0 GiB
                  MemoryBudget spill            used 0 B, peak 1.0 KiB, limit none

                Findings
                  - [info] first finding
                  - [critical] second, 100 % sure
                """);
    }

    @Test
    void aFirstLookAtABareJvmSaysWhatIsMissing() {
        String report = TableReport.of(null, ReportSamples.bare(), List.of());

        assertThat(report).isEqualTo("""
                offheap inspect 4194305 (?), VM, 1 CPUs, 2025-03-04T05:06:07Z

                Resident memory (RSS) 64.0 MiB: anonymous 16.0 MiB, file-backed 48.0 MiB, shared memory 0 B (0 B also mapped by other processes)
                  by mapping kind (7 mappings):
                    other anonymous                                 16.0 MiB
                    program files (JDK, libraries, jars)            32.0 MiB
                    data files (mapped buffers, spill files)        16.0 MiB

                Where RSS goes                  resident   share               from
                  Java heap                     16.0 MiB   25.0%               GC.heap_info committed (at most 32.0 MiB)
                  code cache                         0 B    0.0%               Compiler.codecache committed (at most 2.0 MiB)
                  program files                 32.0 MiB   50.0%               smaps, libraries and jars
                  mapped files                  16.0 MiB   25.0%               smaps, other files
                  thread stacks                      0 B    0.0%               smaps, guard-page layout
                  metaspace                          0 B    0.0%               metaspace committed (at most 4.0 MiB)
                  malloc (glibc)                     0 B    0.0%               smaps, the brk heap and arena heaps
                  unexplained                        0 B    0.0%               RSS minus the parts above (NMT is off: the GC's structures are in here)

                JVM
                  heap        1.0 MiB used, 32.0 MiB committed, 16.0 MiB resident, max unknown
                  metaspace   3.0 MiB used, 4.0 MiB committed
                  code cache  2.0 MiB committed, 0 B resident
                  threads     9 platform (the JVM's own included), stacks 0 B resident
                  virtual     not counted: their stacks live in the heap (--virtual-threads walks the heap for them)
                  NMT         off: start the JVM with -XX:NativeMemoryTracking=summary for GC structures and the rest

                JDK buffer pools
                  direct buffers: not read without JMX (--jmx starts the target's JMX agent: costs about 30 MiB there)
                  direct      limit none set (the max heap)
                  mapped      data files 16.0 MiB resident

                malloc      unavailable: System.native_heap_info said: "no"

                offheap     MBeans not read without JMX (--jmx starts the target's JMX agent: costs about 30 MiB there)

                Findings: none
                """);
    }

    @Test
    void afterTheFirstSampleAWatchPrintsALineOfWhatChangedAndOnlyTheNewFindings() {
        Finding known = Finding.warning("growing-malloc", "malloc (glibc) is growing steadily");
        Finding fresh = Finding.critical("container-near-limit", "The container is close to its memory limit");

        String line = TableReport.change(ReportSamples.previous(), ReportSamples.now(), List.of(known, fresh), List.of(known));

        assertThat(line).isEqualTo("05:06:07  RSS 500.0 MiB (+20.0 MiB)  Java heap 250.0 MiB (+10.0 MiB)  GC structures"
                + " 10.0 MiB (+10.0 MiB)  malloc (glibc) 35.0 MiB (-5.0 MiB)  unexplained 25.0 MiB (+5.0 MiB)\n"
                + "  - [critical] The container is close to its memory limit\n");
    }

    @Test
    void theContainerSectionSaysWhichShareOfTheWholeCgroupIsThisJvm() {
        Sample now = ReportSamples.now();
        ContainerMemory cgroup = new ContainerMemory(2, "v2", "/app", "/sys/fs/cgroup/app", true,
                new ContainerMemory.Figure(4L << 30, "memory.max"), null,
                new ContainerMemory.Figure(2000L << 20, "memory.current"), null, null, null, null, null, null, null, null);
        Sample contained = new Sample(now.pid(), now.time(), now.memory(), now.jvm(), now.buffers(), now.reports(),
                now.offheap(), now.attribution(), new ContainerMemory.Result(cgroup, null), null);

        assertThat(TableReport.of(null, contained, List.of())).contains("  this JVM     500.0 MiB RSS, 25 % of the"
                + " cgroup's usage: the cgroup counts every process in it and their page cache\n");
    }

    @Test
    void theHeadingsOfThePartsTableEndWhereTheirColumnsEnd() {
        List<String> lines = TableReport.of(ReportSamples.previous(), ReportSamples.now(), List.of()).lines().toList();
        String heading = lines.stream().filter(l -> l.startsWith("Where RSS goes")).findFirst().orElseThrow();
        String row = lines.stream().filter(l -> l.startsWith("  Java heap  ")).findFirst().orElseThrow();

        assertThat(heading.indexOf("resident") + "resident".length()).isEqualTo(row.indexOf("250.0 MiB") + "250.0 MiB".length());
        assertThat(heading.indexOf("share") + "share".length()).isEqualTo(row.indexOf("50.0%") + "50.0%".length());
        assertThat(heading.indexOf("change") + "change".length()).isEqualTo(row.indexOf("+10.0 MiB") + "+10.0 MiB".length());
        assertThat(heading.indexOf("from")).isEqualTo(row.indexOf("smaps in"));
    }

    @Test
    void aLabelLongerThanTheColumnWidensItAndTheHeadingsFollow() {
        Sample bare = ReportSamples.bare();
        ProcessMemory memory = new ProcessMemory(64 * ReportSamples.MIB, 0, 0, 0, 0, Map.of(), Map.of(), Map.of(), 7,
                List.of(new NativeAllocator("jemalloc", "/tmp/libduckdb_java11763049790371700607.so", true)));
        Sample withAllocator = new Sample(bare.pid(), bare.time(), memory, bare.jvm(), Optional.empty(), bare.reports(),
                Optional.empty(), new Attribution(64 * ReportSamples.MIB, List.of(
                        new Attribution.Part("heap", "Java heap", 16 * ReportSamples.MIB, true, -1, "smaps"),
                        new Attribution.Part("otherAllocator", "jemalloc in libduckdb_java*.so", 48 * ReportSamples.MIB,
                                false, 48 * ReportSamples.MIB, "by elimination")), 0));

        List<String> lines = TableReport.of(null, withAllocator, List.of()).lines().toList();
        String heading = lines.stream().filter(l -> l.startsWith("Where RSS goes")).findFirst().orElseThrow();

        assertThat(lines).contains(
                "  Java heap                         16.0 MiB   25.0%               smaps",
                "  jemalloc in libduckdb_java*.so    48.0 MiB   75.0%               by elimination (at most 48.0 MiB)",
                "  unexplained                            0 B    0.0%               RSS minus the parts above (NMT is off:"
                        + " the GC's structures are in the other allocator's part)");
        assertThat(heading.indexOf("resident") + "resident".length()).isEqualTo(lines.get(lines.indexOf(heading) + 1)
                .indexOf("16.0 MiB") + "16.0 MiB".length());
    }

    /** Nothing resident, a max heap and a pool limit of 0 (which are limits, not "none"), no change in buffers. */
    @Test
    void zerosAreFiguresToo() {
        Sample bare = ReportSamples.bare();
        JvmAreas jvm = new JvmAreas("VM", 1, "", ReportSamples.MIB, 32 * ReportSamples.MIB, 0, 0, 0, 0, 9, 0, "off");
        Sample empty = new Sample(bare.pid(), bare.time(), new ProcessMemory(0, 0, 0, 0, 0, Map.of(), Map.of(), Map.of(), 0, List.of()), jvm,
                Optional.of(new BufferPools(BufferPools.Usage.NONE, BufferPools.Usage.NONE, BufferPools.Churn.NONE)),
                bare.reports(), Optional.of(List.of(new OffheapBean("BufferPool", "tiny", Map.of("LimitBytes", 0L), null))),
                new Attribution(0, List.of(new Attribution.Part("heap", "Java heap", 0, true, -1, "smaps in the heap's range")), 0));

        List<String> lines = TableReport.of(empty, empty, List.of()).lines().toList();

        assertThat(lines).contains(
                "Resident memory (RSS) 0 B (+0 B): anonymous 0 B, file-backed 0 B, shared memory 0 B (0 B also mapped by other processes)",
                "  by mapping kind (0 mappings):",
                "  Java heap                          0 B    0.0%         +0 B  smaps in the heap's range",
                "  unexplained                        0 B    0.0%         +0 B  RSS minus the parts above (NMT is off: the GC's"
                        + " structures are in here)",
                "  heap        1.0 MiB used, 32.0 MiB committed, 0 B resident, max 0 B",
                "  direct      0 buffers (+0), 0 B capacity, 0 B memory (malloc'd), limit none set (the max heap)",
                "  BufferPool tiny             resident 0 B of 0 B reserved, from OS 0 B, in use 0 B, cached 0 B, peak 0 B, limit 0 B, leaks 0");
        assertThat(lines.get(lines.indexOf("  by mapping kind (0 mappings):") + 1)).as("no kind listed").isEmpty();
    }

    @Test
    void fewerDirectBuffersThanBeforeShowAsANegativeCount() {
        Sample now = ReportSamples.now();
        Sample more = ReportSamples.previous();
        Sample before = new Sample(more.pid(), more.time(), more.memory(), more.jvm(),
                Optional.of(new BufferPools(new BufferPools.Usage(15, 4 * ReportSamples.MIB, 4 * ReportSamples.MIB),
                        more.buffers().orElseThrow().mapped(), more.buffers().orElseThrow().churn())),
                more.reports(), more.offheap(), more.attribution());

        assertThat(TableReport.of(before, now, List.of()).lines()).contains(
                "  direct      12 buffers (-3), 3.0 MiB capacity, 3.5 MiB memory (malloc'd), limit 512.0 MiB");
    }
}
