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
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The console: status line, tables in padded columns under a rule, verdicts, notes. */
class ConsoleReportTest {
    private static final Table ALLOC = new Table("Get and give back one buffer", List.of("size", "strategy", "vs best"),
            List.of(List.of("128 B", "offheap pool", "1.0x (best)"), List.of("", "allocateDirect long", "51.0x"),
                    List.of("short")));

    private static String print(ExperimentResult result, Outcome.Status status, double seconds) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleReport.print(new Outcome(result, status, seconds), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }

    @Test
    void printsStatusTablesVerdictsAndNotes() {
        ExperimentResult r = new ExperimentResult("alloc", "t", List.of(ALLOC), List.of(),
                List.of("offheap pool is cheapest", "TLABs matter"), List.of("seed 000"), Map.of());

        assertThat(print(r, Outcome.Status.OK, 12.34)).isEqualTo("""
                alloc: ok in 12.3 s

                  Get and give back one buffer
                  size   strategy             vs best
                  -----  -------------------  -----------
                  128 B  offheap pool         1.0x (best)
                         allocateDirect long  51.0x
                  short

                  => offheap pool is cheapest
                  => TLABs matter
                  note: seed 000

                """);
    }

    @Test
    void withoutVerdictsNotesFollowTheTablesDirectly() {
        Table two = new Table("Second", List.of("a", "b"), List.of(List.of("1", "2", "ignored")));
        ExperimentResult r = new ExperimentResult("io", "t", List.of(two, two), List.of(), List.of(),
                List.of("skipped: no disk"), Map.of());

        assertThat(print(r, Outcome.Status.SKIPPED, 0)).isEqualTo("""
                io: skipped in 0.0 s

                  Second
                  a  b
                  -  -
                  1  2

                  Second
                  a  b
                  -  -
                  1  2
                  note: skipped: no disk

                """);
    }

    @Test
    void columnsWhereNothingWasMeasuredAreLeftOutAndNamedUnderTheTable() {
        Table server = new Table("Static file", List.of("strategy", "req/s", "wrk req/s", "wrk p99 ms"),
                List.of(List.of("heap", "2100", "—", "—"), List.of("pool", "2648", "—", "—")));
        ExperimentResult r = new ExperimentResult("server", "t", List.of(server), List.of(), List.of("pool serves most"),
                List.of("wrk is not installed"), Map.of());

        assertThat(print(r, Outcome.Status.OK, 2)).isEqualTo("""
                server: ok in 2.0 s

                  Static file
                  strategy  req/s
                  --------  -----
                  heap      2100
                  pool      2648
                  columns left out, no figure in any row: "wrk req/s", "wrk p99 ms"

                  => pool serves most
                  note: wrk is not installed

                """);
    }

    @Test
    void aFailedExperimentWithNothingToShowIsOneLine() {
        ExperimentResult r = new ExperimentResult("gc", "t", List.of(), List.of(), List.of(), List.of(), Map.of());

        assertThat(print(r, Outcome.Status.FAILED, 1.05)).isEqualTo("gc: failed in 1.1 s\n\n");
    }
}
