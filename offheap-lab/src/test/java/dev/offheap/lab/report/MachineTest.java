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

package dev.offheap.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine line of the reports, from files in the format of /proc/cpuinfo and /proc/meminfo. */
class MachineTest {
    private static final String CPUS = Runtime.getRuntime().availableProcessors() + " CPUs";
    private static final String OS = System.getProperty("os.name") + " " + System.getProperty("os.version");

    @TempDir
    Path dir;

    @Test
    void namesTheCpuModelTheCpusTheMemoryInGibAndTheOs() throws Exception {
        Path cpuinfo = Files.writeString(dir.resolve("cpuinfo"), """
                processor\t: 0
                vendor_id\t: AuthenticAMD
                model name\t: AMD EPYC 7B13
                processor\t: 1
                model name\t: another model
                """);
        Path meminfo = Files.writeString(dir.resolve("meminfo"), """
                MemFree:         1024000 kB
                MemTotal:       24684084 kB
                """);

        assertThat(Machine.describe(cpuinfo, meminfo)).isEqualTo("AMD EPYC 7B13, " + CPUS + ", 24 GiB, " + OS);
    }

    @Test
    void withoutTheFilesTheArchitectureStandsForTheModelAndTheMemoryIsLeftOut() {
        assertThat(Machine.describe(dir.resolve("none"), dir.resolve("none")))
                .isEqualTo(System.getProperty("os.arch") + ", " + CPUS + ", " + OS);
    }

    @Test
    void withoutTheLinesTheArchitectureStandsForTheModelAndTheMemoryIsLeftOut() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty"), "processor\t: 0\n");

        assertThat(Machine.describe(empty, empty)).isEqualTo(System.getProperty("os.arch") + ", " + CPUS + ", " + OS);
    }

    @Test
    void thisMachineIsDescribedFromProc() {
        assertThat(Machine.describe())
                .isEqualTo(Machine.describe(Path.of("/proc/cpuinfo"), Path.of("/proc/meminfo"))).endsWith(OS);
    }

    @Test
    void theJdkIsVendorVmAndRuntimeVersion() {
        assertThat(Machine.jdk()).isEqualTo(System.getProperty("java.vm.vendor") + " "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }
}
