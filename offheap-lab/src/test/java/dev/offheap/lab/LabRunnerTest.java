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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The runner goes on after an experiment that fails or is skipped. */
class LabRunnerTest {

    record Fake(String name, boolean fails, boolean runs) implements Experiment {
        @Override
        public String title() {
            return "a fake";
        }

        @Override
        public ExperimentResult run(LabContext context) {
            if (fails) {
                throw new IllegalStateException("broken on purpose");
            }
            context.progress().update("step", 1);
            var table = new ExperimentResult.Table("t", List.of("a"), List.of(List.of("1")));
            return new ExperimentResult(name, title(), runs ? List.of(table) : List.of(), List.of(), List.of(),
                    runs ? List.of() : List.of("skipped: no wrk"), Map.of());
        }
    }

    @Test
    void aFailingOrSkippedExperimentDoesNotStopTheOthers() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        List<Outcome> outcomes = new LabRunner(LabContext.Scale.TINY, new PrintStream(console, true, StandardCharsets.UTF_8))
                .run(List.of(new Fake("first", true, false), new Fake("second", false, false), new Fake("third", false, true)));

        assertThat(outcomes).extracting(Outcome::status)
                .containsExactly(Outcome.Status.FAILED, Outcome.Status.SKIPPED, Outcome.Status.OK);
        assertThat(outcomes.getFirst().result().notes()).containsExactly("failed: IllegalStateException: broken on purpose");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("[1/3] first", "first: failed",
                "[2/3] second", "skipped: no wrk", "[3/3] third", "third: ok");
    }
}
