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

import org.junit.jupiter.api.Test;

/** G1's side tables as a share of the committed heap, by JDK; no estimate for other collectors. */
class GcTablesTest {
    private static final long MIB = 1L << 20;
    private static final String JDK25 = "OpenJDK 64-Bit Server VM 25.0.3+9-LTS";
    private static final String JDK17 = "OpenJDK 64-Bit Server VM 17.0.15+6-Debian-1deb12u1";

    @Test
    void g1sTablesAreTenFiveHundredTwelfthsOfTheCommittedHeapSinceJdk20AndNineteenBefore() {
        String jdk25Heap = Fixtures.read("jdk25-gc-heap-info.txt");
        String jdk17Heap = Fixtures.read("jdk17-gc-heap-info.txt");

        assertThat(GcTables.estimate(jdk25Heap, JDK25, 512 * MIB)).isEqualTo(10 * MIB);
        assertThat(GcTables.estimate(jdk17Heap, JDK17, 512 * MIB)).isEqualTo(19 * MIB);
        assertThat(GcTables.estimate(jdk25Heap, "OpenJDK 64-Bit Server VM 21.0.5+11-LTS", 512 * MIB)).isEqualTo(10 * MIB);
        assertThat(GcTables.estimate(jdk25Heap, "OpenJDK 64-Bit Server VM 19.0.2+7", 512 * MIB)).isEqualTo(19 * MIB);
        assertThat(GcTables.estimate(jdk25Heap, "OpenJDK 64-Bit Server VM 20+36", 512 * MIB)).as("one bitmap since 20")
                .isEqualTo(10 * MIB);
        assertThat(GcTables.how("OpenJDK 64-Bit Server VM 20+36")).contains("10/512");
        assertThat(GcTables.how("OpenJDK 64-Bit Server VM 19.0.2+7")).contains("19/512");
        assertThat(GcTables.how(JDK25)).contains("10/512");
        assertThat(GcTables.how(JDK17)).contains("19/512");
    }

    @Test
    void otherCollectorsAnUnknownVersionOrNoHeapAreNotEstimated() {
        String g1 = Fixtures.read("jdk25-gc-heap-info.txt");

        assertThat(GcTables.estimate(" PSYoungGen      total 76288K, used 3932K", JDK25, 512 * MIB)).isEqualTo(-1);
        assertThat(GcTables.estimate(" ZHeap           used 20M, capacity 256M, max capacity 4096M", JDK25, 512 * MIB))
                .isEqualTo(-1);
        assertThat(GcTables.estimate(g1, "", 512 * MIB)).isEqualTo(-1);
        assertThat(GcTables.estimate(g1, JDK25, 0)).isEqualTo(-1);
        assertThat(GcTables.estimate(g1, JDK25, -1)).isEqualTo(-1);
    }
}
