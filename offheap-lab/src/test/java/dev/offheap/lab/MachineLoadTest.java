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

package dev.offheap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's load during an experiment, from files in the formats of /proc/stat and /proc/loadavg. */
class MachineLoadTest {
    @TempDir
    Path dir;

    private Path stat(int running) throws IOException {
        return Files.writeString(dir.resolve("stat"), "cpu  1 2 3 4\nctxt 99\nprocs_running " + running
                + "\nprocs_blocked 0\n");
    }

    @Test
    void runnableLeavesOutTheSamplerAndMoreThanTheCoresIsBusy() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        Path loadavg = Files.writeString(dir.resolve("loadavg"), "3.47 2.29 1.78 7/155 28634\n");
        MachineLoad load = MachineLoad.start(stat(cores + 2), loadavg);
        Thread.sleep(3 * MachineLoad.INTERVAL_MS);

        MachineLoad.Reading reading = load.stop(1);

        assertThat(reading.loadAverage()).isEqualTo(3.47);
        assertThat(reading.runnable()).isEqualTo(cores + 1.0);
        assertThat(reading.samples()).isPositive();
        assertThat(reading.busy()).isTrue();
        assertThat(reading.describe()).startsWith("the machine was busy while this ran (load average 3.47 at the"
                + " start, " + (cores + 1) + ".0 runnable tasks on average on " + cores + " cores, 1 of them this"
                + " experiment's)");
    }

    @Test
    void asManyRunnableAsCoresIsQuietEnough() throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        MachineLoad load = MachineLoad.start(stat(cores + 1), dir.resolve("no-loadavg"));
        Thread.sleep(2 * MachineLoad.INTERVAL_MS);

        MachineLoad.Reading reading = load.stop(1);

        assertThat(reading.busy()).isFalse();
        assertThat(reading.loadAverage()).isNaN();
        assertThat(reading.describe()).startsWith("the machine was quiet enough");
    }

    @Test
    void withoutProcNothingIsKnownAndNothingSaid() {
        MachineLoad.Reading reading = MachineLoad.start(dir.resolve("none"), dir.resolve("none")).stop(1);

        assertThat(reading.samples()).isZero();
        assertThat(reading.busy()).isFalse();
        assertThat(reading.describe()).isEmpty();
        ExperimentResult result = new ExperimentResult("x", "t", List.of(), List.of(), List.of("v"), List.of("n"),
                Map.of());
        assertThat(LabRunner.withLoad(result, reading)).isSameAs(result);
    }

    @Test
    void aBusyMachineIsNotedFirstWarnedAmongTheVerdictsAndRecordedInTheRawFigures() {
        MachineLoad.Reading busy = new MachineLoad.Reading(3.5, 3.2, 10, 2, 1);
        ExperimentResult result = new ExperimentResult("x", "t", List.of(), List.of(), List.of("v"), List.of("n"),
                Map.of("unit", "ns"));

        ExperimentResult loaded = LabRunner.withLoad(result, busy);

        assertThat(loaded.notes()).hasSize(2).first().asString().startsWith("the machine was busy while this ran");
        assertThat(loaded.verdicts()).containsExactly("v", "Measured on a busy machine (load average 3.50 at the"
                + " start, 3.2 runnable tasks on average on 2 cores, 1 of them this experiment's): the figures above"
                + " are less steady than on a quiet one; run the lab again when the machine is idle to confirm them.");
        assertThat(loaded.raw()).containsEntry("unit", "ns").containsEntry("machineLoad", Map.of(
                "loadAverageAtStart", 3.5, "meanRunnableTasks", 3.2, "cores", 2, "experimentThreads", 1, "busy", true));
    }

    @Test
    void anExperimentsOwnExtraThreadsAreNotABusyMachine() {
        assertThat(new MachineLoad.Reading(2, 2.9, 10, 2, 2).busy()).as("a server and its load generator").isFalse();
        assertThat(new MachineLoad.Reading(2, 3.1, 10, 2, 2).busy()).isTrue();
        assertThat(new MachineLoad.Reading(2, 2.1, 10, 2, 1).busy()).isTrue();
    }

    @Test
    void stopEndsTheSamplingThreadWhichSamplesOncePerInterval() throws Exception {
        long start = System.nanoTime();
        MachineLoad load = MachineLoad.start(stat(1), dir.resolve("none"));
        Thread.sleep(3 * MachineLoad.INTERVAL_MS);

        MachineLoad.Reading reading = load.stop(1);
        long intervals = (System.nanoTime() - start) / 1_000_000 / MachineLoad.INTERVAL_MS;

        assertThat(reading.samples()).isBetween(1, (int) intervals + 2);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("lab-machine-load"));
    }

    @Test
    void aStatFileWithoutProcsRunningTellsNothing() throws Exception {
        Path stat = Files.writeString(dir.resolve("stat-old"), "cpu  1 2 3 4\nctxt 99\n");

        assertThat(MachineLoad.procsRunning(stat)).isNaN();
        assertThat(MachineLoad.procsRunning(stat(3))).isEqualTo(3.0);
    }
}
