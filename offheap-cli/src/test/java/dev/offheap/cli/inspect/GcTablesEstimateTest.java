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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The estimate of G1's side tables against the pages NMT detail labels GC, in a JVM whose heap is all committed
 * and has been collected: on JDK 25 (labels by {@code System.map}) and JDK 17 (NMT detail's regions), the
 * labelled pages lie between half the estimate and 1.1 times it, so the estimate bounds the part where NMT is off.
 */
@Tag("child-jvm")
class GcTablesEstimateTest {

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {25, 17})
    void theEstimateBoundsTheGcPagesNmtLabels(int jdk) throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = jdk == 17 ? InflaterLeakTest.JDK17.toString() : ProcessHandle.current().info().command().orElseThrow();
        assumeThat(Files.isExecutable(Path.of(java))).as("JDK 17 is not installed at " + InflaterLeakTest.JDK17
                + " (Debian: apt-get install openjdk-17-jdk-headless)").isTrue();
        Path program = Path.of("src/test/resources/inspect/GcChurn.java").toAbsolutePath();
        Process target = AttachTargets.startReady(new ProcessBuilder(List.of(java, "-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
                "-XX:NativeMemoryTracking=detail", program.toString())));
        try {
            Map<String, Object> json = InspectRun.json(target.pid());
            @SuppressWarnings("unchecked")
            Map<String, Object> jvm = (Map<String, Object>) ((Map<String, Object>) json.get("details")).get("jvm");
            double estimate = ((Number) jvm.get("gcTablesEstimate")).doubleValue();
            double labelled = MiniJson.part(json, "gc");

            assertThat(estimate).as("10/512 or 19/512 of 512 MiB").isEqualTo((jdk == 17 ? 19 : 10) << 20);
            assertThat(labelled).as("GC's labelled resident pages").isBetween(0.5 * estimate, 1.1 * estimate);
        } finally {
            AttachTargets.end(target);
        }
    }
}
