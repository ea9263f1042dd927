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
import org.junit.jupiter.api.Test;

/** {@code VM.flags -all} output recorded from JDK 25 and JDK 17 (src/test/resources/cgroup/vmflags). */
class VmFlagsTest {
    private static VmFlags recorded(String name) {
        return VmFlags.parse(CgroupFixtures.file("vmflags", name));
    }

    @Test
    void jdk25WithOnlyXmxHasNoDirectLimitAndNoMetaspaceLimit() {
        assertThat(recorded("jdk25-Xmx4g.txt").settings()).isEqualTo(new Ceilings.Settings(4294967296L, 0, -1,
                251662336, 1024 * 1024, Map.of("MaxHeapSize", "command line", "MaxDirectMemorySize", "default",
                        "MaxMetaspaceSize", "default", "ReservedCodeCacheSize", "ergonomic", "ThreadStackSize", "default")));
    }

    @Test
    void jdk17WithEveryCeilingSet() {
        assertThat(recorded("jdk17-Xmx1g-MaxDirect512m-MaxMetaspace256m-Xss512k.txt").settings()).isEqualTo(
                new Ceilings.Settings(1073741824, 536870912, 268435456, 251658240, 512 * 1024,
                        Map.of("MaxHeapSize", "command line", "MaxDirectMemorySize", "command line",
                                "MaxMetaspaceSize", "command line", "ReservedCodeCacheSize", "ergonomic",
                                "ThreadStackSize", "command line")));
    }

    @Test
    void everyFlagLineIsReadAndTheOthersSkipped() {
        VmFlags flags = recorded("jdk25-Xmx4g.txt");

        for (String name : new String[] {"jdk25-Xmx4g.txt", "jdk17-Xmx1g-MaxDirect512m-MaxMetaspace256m-Xss512k.txt"}) {
            long lines = CgroupFixtures.file("vmflags", name).lines().count();
            assertThat(recorded(name).flags()).as(name).hasSize((int) lines - 2); // less "PID:" and "[Global flags]"
        }
        assertThat(flags.flag("AOTCache")).contains(new VmFlags.Flag("ccstr", "AOTCache", "", "default"));
        assertThat(flags.flag("MaxRAMPercentage")).contains(new VmFlags.Flag("double", "MaxRAMPercentage",
                "25.000000", "default"));
        assertThat(flags.flag("UseContainerSupport")).contains(new VmFlags.Flag("bool", "UseContainerSupport", "true",
                "default"));
        assertThat(flags.number("MaxMetaspaceSize", 0)).as("2^64-1 read as unsigned").isEqualTo(-1);
        assertThat(flags.number("ActiveProcessorCount", 0)).isEqualTo(-1);
        assertThat(flags.number("NoSuchFlag", 7)).isEqualTo(7);
    }

    @Test
    void theDiagnosticCommandsOutputWithoutJcmdsPidLineReadsTheSame() {
        String text = """
                [Global flags]
                   size_t MaxHeapSize                              = 67108864                                  {product} {command line}
                 uint64_t MaxDirectMemorySize                      = 33554432                                  {product} {command line}
                """;

        assertThat(VmFlags.parse(text).settings()).isEqualTo(new Ceilings.Settings(67108864, 33554432, -1, -1, -1,
                Map.of("MaxHeapSize", "command line", "MaxDirectMemorySize", "command line")));
    }

    @Test
    void theJvmInTheRecordedLimitedCgroup() {
        Ceilings.Settings s = recorded("jdk25-Xmx64m-MaxDirect32m.txt").settings();

        assertThat(s.maxHeapSize()).isEqualTo(64L << 20);
        assertThat(s.maxDirectMemorySize()).isEqualTo(32L << 20);
    }
}
