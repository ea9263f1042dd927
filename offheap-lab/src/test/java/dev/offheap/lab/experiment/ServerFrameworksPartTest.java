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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.offheap.lab.experiment.server.ServerShootout;
import dev.offheap.lab.experiment.server.Summary;
import dev.offheap.lab.experiment.server.Workload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The frameworks part of the server experiment without servers: its notes and its share of the progress bar. */
class ServerFrameworksPartTest {
    private static final ServerShootout.Settings SETTINGS = ServerExperiment.frameworkSettings(
            dev.offheap.lab.LabContext.Scale.QUICK).orElseThrow();

    @Test
    void notesSayHowItRanThenTheShootoutsNotesThenEachFailedRun() {
        Summary fine = summary("offheap", List.of());
        Summary failed = summary("array", List.of("round 1: did not start: no java", "round 2: 3 errors"));
        ServerShootout.Results shootout = new ServerShootout.Results(SETTINGS, List.of(), List.of(fine, failed),
                List.of("jetty-1m offheap printed on stderr: WARNING: x"));

        assertThat(ServerExperiment.frameworkNotes(SETTINGS, shootout)).containsExactly(
                "frameworks part: " + SETTINGS.describe(),
                "frameworks part: one round per configuration in a shared 2-core machine: a verdict names a winner"
                        + " only beyond one run's noise (10%); offheap-bench/scripts/servers.sh runs every workload in"
                        + " rounds for BENCHMARKS.md",
                "frameworks part: jetty-1m offheap printed on stderr: WARNING: x",
                "frameworks part: jetty-1m array failed, round 1: did not start: no java",
                "frameworks part: jetty-1m array failed, round 2: 3 errors");
    }

    @Test
    void progressFillsTheBarAfterTheSeedsFifth() {
        List<String> what = new ArrayList<>();
        List<Double> fractions = new ArrayList<>();
        ServerShootout.Progress progress = ServerExperiment.frameworkProgress((w, f) -> {
            what.add(w);
            fractions.add(f);
        });

        progress.update("round 1, jetty-1m, offheap", 0);
        progress.update("round 1, jetty-1m, array", 0.5);
        progress.update("done", 1);

        assertThat(what).containsExactly("server: round 1, jetty-1m, offheap", "server: round 1, jetty-1m, array",
                "server: done");
        assertThat(fractions.get(0)).isCloseTo(0.2, within(1e-12));
        assertThat(fractions.get(1)).isCloseTo(0.6, within(1e-12));
        assertThat(fractions.get(2)).isCloseTo(1.0, within(1e-12));
    }

    private static Summary summary(String config, List<String> failures) {
        return new Summary(Workload.JETTY_1M, config, Range.of(1000), 1, Range.of(1), Range.of(2), Range.of(3),
                Range.of(4), 4, Range.of(200), Range.of(100), 0, failures);
    }
}
