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

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.Outcome;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An experiment's report reaches the console when it is printed, not when the stream's buffer fills up. */
class ConsoleReportFlushTest {
    @Test
    void printFlushesABufferedStream() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream buffered = new PrintStream(new BufferedOutputStream(console, 1 << 16), false,
                StandardCharsets.UTF_8);
        ExperimentResult r = new ExperimentResult("io", "t", List.of(), List.of(), List.of(), List.of(), Map.of());

        ConsoleReport.print(new Outcome(r, Outcome.Status.OK, 1), buffered);

        assertThat(console.toString(StandardCharsets.UTF_8)).startsWith("io: ok in 1.0 s");
    }
}
