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

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The JVM's figures from the texts of its diagnostic commands, as JDK 17 and 25 print them for every collector. */
class JvmAreasTest {
    private static final long K = 1024;
    private static final long M = 1024 * K;

    @Nested
    class Heap {
        @Test
        void g1OnJdk25PrintsReservedCommittedAndUsed() {
            assertThat(JvmAreas.heapUsage("""
                    garbage-first heap   total reserved 1048576K, committed 389120K, used 133631K [0x00000000c0000000, 0x0000000100000000)
                     region size 1024K, 2 young (2048K), 0 survivors (0K)
                    """)).containsExactly(133631 * K, 389120 * K);
        }

        @Test
        void g1OnJdk17PrintsTotalAndUsed() {
            assertThat(JvmAreas.heapUsage("""
                     garbage-first heap   total 389120K, used 133044K [0x00000000c0000000, 0x0000000100000000)
                      region size 1024K, 1 young (1024K), 0 survivors (0K)
                     Metaspace       used 78K, committed 320K, reserved 1114112K
                      class space    used 3K, committed 128K, reserved 1048576K
                    """)).containsExactly(133044 * K, 389120 * K);
        }

        @Test
        void serialAndParallelAreSummedOverTheirGenerationsNotTheirSpaces() {
            assertThat(JvmAreas.heapUsage("""
                     def new generation   total 116160K, used 72776K [0x00000000c0000000, 0x00000000c7e00000, 0x00000000d5550000)
                      eden space 103296K,  70% used [0x00000000c0000000, 0x00000000c47123a8, 0x00000000c64e0000)
                      from space 12864K,   0% used [0x00000000c64e0000, 0x00000000c64e0000, 0x00000000c7170000)
                     tenured generation   total 258048K, used 0K [0x00000000d5550000, 0x00000000e5150000, 0x0000000100000000)
                       the space 258048K,   0% used [0x00000000d5550000, 0x00000000d5550000, 0x00000000d5550200, 0x00000000e5150000)
                    """)).containsExactly(72776 * K, (116160 + 258048) * K);
            assertThat(JvmAreas.heapUsage("""
                    DefNew     total 116160K, used 72776K [0x00000000c0000000, 0x00000000c7e00000, 0x00000000d5550000)
                     eden space 103296K,  70% used [0x00000000c0000000, 0x00000000c47122e0, 0x00000000c64e0000)
                    Tenured    total 258048K, used 1166K [0x00000000d5550000, 0x00000000e5150000, 0x0000000100000000)
                    """)).containsExactly((72776 + 1166) * K, (116160 + 258048) * K);
            assertThat(JvmAreas.heapUsage("""
                    PSYoungGen      total 113152K, used 72295K [0x00000000eab00000, 0x00000000f2900000, 0x0000000100000000)
                     eden space 97280K, 74% used [0x00000000eab00000,0x00000000ef199dc0,0x00000000f0a00000)
                    ParOldGen       total 258048K, used 1166K [0x00000000c0000000, 0x00000000cfc00000, 0x00000000eab00000)
                     object space 258048K, 0% used [0x00000000c0000000,0x00000000c0123ab8,0x00000000cfc00000)
                    """)).containsExactly((72295 + 1166) * K, (113152 + 258048) * K);
        }

        @Test
        void zgcPrintsUsedAndCapacityInMegabytes() {
            assertThat(JvmAreas.heapUsage("""
                    ZHeap            used 98M, capacity 378M, max capacity 1024M
                     Cache           280M (1)
                    """)).containsExactly(98 * M, 378 * M);
        }

        @Test
        void shenandoahPrintsCommittedAndUsed() {
            assertThat(JvmAreas.heapUsage("""
                    Shenandoah Heap
                     1024M max, 1024M soft max, 377M committed, 68609K used
                     2048 x 512 K regions
                    Reserved region:
                     - [0x00000000c0000000, 0x0000000100000000)
                    """)).containsExactly(68609 * K, 377 * M);
        }

        @Test
        void anUnknownCollectorOrAnErrorGivesMinusOne() {
            assertThat(JvmAreas.heapUsage("Error: java.lang.IllegalArgumentException")).containsExactly(-1, -1);
            assertThat(JvmAreas.heapUsage("")).containsExactly(-1, -1);
        }
    }

    @Test
    void metaspaceComesFromItsLineInGcHeapInfoOrVmMetaspaceBasic() {
        assertThat(JvmAreas.metaspaceUsage(" Metaspace       used 6335K, committed 6528K, reserved 1114112K\n"
                + "  class space    used 589K, committed 704K, reserved 1048576K\n")).containsExactly(6335 * K, 6528 * K);
        assertThat(JvmAreas.metaspaceUsage("Metaspace        used 91K, committed 320K, reserved 1114112K\n"
                + " class space     used 6K, committed 128K, reserved 1048576K\n\nUsage:\n  Non-class:     84.87 KB used.\n"))
                .containsExactly(91 * K, 320 * K);
        assertThat(JvmAreas.metaspaceUsage("garbage-first heap   total reserved 1048576K, committed 389120K, used 1K"))
                .as("JDK 25's GC.heap_info").containsExactly(-1, -1);
    }

    @Test
    void theCodeCacheIsCommittedUpToTheMiddleBoundOfEachCodeHeap() {
        assertThat(JvmAreas.codeCacheCommitted("""
                CodeHeap 'non-profiled nmethods': size=120036Kb used=2Kb max_used=2Kb free=120033Kb
                 bounds [0x00007fc64bec7000, 0x00007fc64c137000, 0x00007fc653400000]
                CodeHeap 'profiled nmethods': size=120036Kb used=2Kb max_used=2Kb free=120033Kb
                 bounds [0x00007fc6443ff000, 0x00007fc64466f000, 0x00007fc64b938000]
                CodeHeap 'non-nmethods': size=5692Kb used=1267Kb max_used=1267Kb free=4424Kb
                 bounds [0x00007fc64b938000, 0x00007fc64bba8000, 0x00007fc64bec7000]
                CodeCache: size=245764Kb, used=1271Kb, max_used=1271Kb, free=244490Kb
                 total_blobs=308, nmethods=6, adapters=208, full_count=0
                """)).isEqualTo(3 * 0x270000L);
        assertThat(JvmAreas.codeCacheCommitted("")).isEqualTo(-1);
    }

    @Test
    void vmFlagsGivesValuesAndBooleans() {
        var flags = JvmAreas.flags("-XX:CICompilerCount=2 -XX:MaxDirectMemorySize=67108864 -XX:MaxHeapSize=1073741824"
                + " -XX:NativeMemoryTracking=summary -XX:+SegmentedCodeCache -XX:-THPStackMitigation -XX:+UseG1GC \n");

        assertThat(flags).containsEntry("MaxHeapSize", "1073741824").containsEntry("MaxDirectMemorySize", "67108864")
                .containsEntry("NativeMemoryTracking", "summary").containsEntry("UseG1GC", "true")
                .containsEntry("THPStackMitigation", "false").hasSize(7);
    }

    @Test
    void theVmIsItsNameAndVersion() {
        assertThat(JvmAreas.vmName("OpenJDK 64-Bit Server VM version 25.0.3+9-LTS\nJDK 25.0.3\n"))
                .isEqualTo("OpenJDK 64-Bit Server VM 25.0.3+9-LTS");
        assertThat(JvmAreas.vmName("")).isEmpty();
    }

    @Test
    void javaHomeIsWhereTheMappedLibjvmLies() {
        String maps = """
                55d0c8a00000-55d0c8a01000 r--p 00000000 08:01 1234   /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
                7f1c2a000000-7f1c2b000000 r-xp 00000000 08:01 5678   /usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so
                """;

        assertThat(JvmAreas.javaHome(maps)).isEqualTo("/usr/lib/jvm/temurin-25-jdk-amd64");
        assertThat(JvmAreas.javaHome("7f1c2a000000-7f1c2b000000 r-xp 00000000 08:01 5678   /opt/jdk/lib/server/libjvm.so (deleted)\n"))
                .isEqualTo("/opt/jdk");
        assertThat(JvmAreas.javaHome("7f1c2a000000-7f1c2b000000 rw-p 00000000 00:00 0\n")).isEmpty();
    }

    @Test
    void cpusAreTheAffinityCappedByTheQuotaRoundedUpUnlessActiveProcessorCountIsSet() {
        assertThat(JvmAreas.cpus("0-3", 0, -1)).isEqualTo(4);
        assertThat(JvmAreas.cpus("0-3,8,10-11", 0, -1)).isEqualTo(7);
        assertThat(JvmAreas.cpus("0-7", 1.5, -1)).isEqualTo(2);
        assertThat(JvmAreas.cpus("0-7", 0.2, -1)).isEqualTo(1);
        assertThat(JvmAreas.cpus("0-1", 4, -1)).isEqualTo(2);
        assertThat(JvmAreas.cpus("0-7", 2, 3)).isEqualTo(3);
        assertThat(JvmAreas.cpus("", 0, -1)).isEqualTo(-1);
    }
}
