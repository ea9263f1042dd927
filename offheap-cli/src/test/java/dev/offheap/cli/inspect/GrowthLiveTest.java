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
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A live native leak in watch mode (20 Inflaters every 100 ms, about 1.4 MiB a second into malloc): flagged as
 * growing within half a minute of watching, with malloc's growth in use; the first samples, too few to tell, say
 * nothing. The compact output names the new finding once. Its record, drawn by {@code offheap report}, has the
 * finding on the time axis.
 */
@Tag("child-jvm")
class GrowthLiveTest {

    @Test
    @SuppressWarnings("unchecked")
    void aLiveLeakIsFlaggedAsGrowingWithinHalfAMinute() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx64m",
                Path.of("src/test/resources/inspect/InflaterLeakLive.java").toAbsolutePath().toString(), "leak"));
        try {
            Path record = Files.createTempFile("growth-live-", ".jsonl");
            InspectRun.Result run = InspectRun.run(target.pid(), "--watch", "5", "--count", "7", "--json", "--record",
                    record.toString());
            assertThat(run.exit()).as(run.err()).isZero();
            List<String> lines = run.out().lines().toList();
            assertThat(lines).hasSize(7);

            List<Object> first = (List<Object>) MiniJson.object(lines.get(2)).get("findings");
            assertThat(first).as("15 s in: too few samples").noneSatisfy(f -> assertThat(((Map<String, Object>) f).get("id"))
                    .isEqualTo("growing-malloc"));
            Map<String, Object> last = MiniJson.object(lines.getLast());
            assertThat((List<Map<String, Object>>) last.get("findings")).anySatisfy(f -> {
                assertThat(f.get("id")).isEqualTo("growing-malloc");
                assertThat((String) f.get("text")).contains("is growing steadily").contains("live allocations");
            });
            assertThat((List<Map<String, Object>>) last.get("growth")).anySatisfy(g -> {
                assertThat(g.get("figure")).isEqualTo("malloc");
                assertThat(g.get("steady")).isEqualTo(true);
                assertThat(((Number) g.get("bytesPerSecond")).doubleValue()).isGreaterThan(256 * 1024);
            });

            // the record's picture: the leak's finding on the time axis, malloc's rate in the table
            Path html = record.resolveSibling(record.getFileName().toString().replace(".jsonl", ".html"));
            RecordCommandTest.Run report = RecordCommandTest.offheap("report", record.toString());
            assertThat(report.exit()).as(report.err()).isZero();
            assertThat(report.out()).isEqualTo("offheap report: 7 samples of " + record + " drawn in " + html + "\n");
            assertThat(html).content().contains("<g class=\"finding\" data-id=\"growing-malloc\"", "data-part=\"malloc\"",
                    "7 samples by offheap inspect");
            Files.delete(html);
            Files.delete(record);
        } finally {
            AttachTargets.end(target);
        }
    }
}
