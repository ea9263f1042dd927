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

import dev.offheap.cli.OffheapCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code offheap record PID}: the recorder loaded into running JVMs of JDK 25 and 17, asked for a report, stopped. */
@Tag("child-jvm")
class RecordCommandTest {
    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}

    static Run offheap(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new OffheapCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {25, 17})
    void loadsTheRecorderIntoARunningJvmThatThenReportsOnRequestAndStops(int feature) throws Exception {
        Path java = AttachTargets.requireJava(feature);
        Path reports = dir.resolve("reports");
        try (AttachTargets.Target target = AttachTargets.start(java, dir)) {
            String pid = Long.toString(target.pid());
            Run start = offheap("record", pid, "--dir", reports.toString(), "--interval", "200ms", "--signal", "none");
            assertThat(start.exit()).as(start.err()).isZero();
            assertThat(start.out()).startsWith("offheap record: recording " + pid + " (dir=" + reports
                    + ",interval=200ms,signal=none); reports go to " + reports + ", every 200 ms");
            Path html = null;
            for (int i = 0; i < 600 && html == null; i++) {
                Run report = offheap("record", pid, "--report");
                assertThat(report.exit()).as(report.err()).isZero();
                html = find(reports, "-request.html");
                if (html == null) {
                    Thread.sleep(100);
                }
            }
            assertThat(html).as("a report within a minute").isNotNull();
            assertThat(html).content().contains("Memory of process " + pid, feature == 25 ? "25" : "17.");
            assertThat(offheap("record", pid, "--stop").out()).contains("asked the recorder in " + pid + " to stop");
            String printed = "";
            for (int i = 0; i < 600 && !printed.contains("stopped"); i++) {
                printed += target.laterOutput();
                Thread.sleep(100);
            }
            assertThat(printed).contains("offheap recorder: recording to " + reports, "offheap recorder: report written to",
                    "offheap recorder: stopped");
        }
    }

    @Test
    void refusesBadOptionsBeforeAttachingAndSaysWhenThereIsNoSuchProcess() {
        Run bad = offheap("record", "1", "--interval", "5ms");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("offheap record: interval 5 ms is below 100 ms\n");
        assertThat(offheap("record", "1", "--dir", "/a,b").err()).contains("--dir cannot hold a comma");
        assertThat(offheap("record", "1", "--report", "--stop").exit()).isEqualTo(2);
        Run none = offheap("record", "999999999");
        assertThat(none.exit()).isEqualTo(InspectException.NO_SUCH_PROCESS);
        assertThat(none.err()).startsWith("offheap record: ");
    }

    @Test
    void drawsARecordAndRefusesOneWithoutSamples() throws Exception {
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\n");
        Run refused = offheap("report", empty.toString());
        assertThat(refused.exit()).isEqualTo(InspectException.FAILED);
        assertThat(refused.err()).contains("holds no sample");
        assertThat(offheap("report", dir.resolve("missing.jsonl").toString()).err()).contains("cannot read");
        assertThat(ReportCommand.stripJsonl("a.jsonl")).isEqualTo("a");
        assertThat(ReportCommand.stripJsonl("a.ndjson")).isEqualTo("a");
        assertThat(ReportCommand.stripJsonl("a.json")).isEqualTo("a");
        assertThat(ReportCommand.stripJsonl("a.txt")).isEqualTo("a.txt");
    }

    static Path find(Path reports, String suffix) throws Exception {
        if (!Files.isDirectory(reports)) {
            return null;
        }
        try (Stream<Path> files = Files.list(reports)) {
            List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(suffix)).toList();
            return found.isEmpty() ? null : found.get(0);
        }
    }
}
