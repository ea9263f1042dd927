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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A JVM started with -XX:+DisableAttachMechanism: inspect refuses to attach and names --no-attach, which then
 * shows what /proc alone tells (the Inflater leak's malloc, stacks, files) and leaves the JVM's regions unexplained.
 */
@Tag("child-jvm")
class InspectWithoutAttachTest {

    @Test
    void aJvmThatRefusesAttachIsStillExplainedFromProc() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/InflaterLeak.java").toAbsolutePath();
        Process target = new ProcessBuilder(java, "-Xmx256m", "-XX:+DisableAttachMechanism", program.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(lines.readLine()).isEqualTo("READY");
            InspectRun.Result refused = InspectRun.run(target.pid(), "--json");
            Map<String, Object> json = InspectRun.json(target.pid(), "--no-attach");

            assertThat(refused.exit()).isEqualTo(InspectException.ATTACH_FAILED);
            assertThat(refused.err()).contains("DisableAttachMechanism", "--no-attach shows what /proc alone tells");
            List<String> parts = ((List<?>) json.get("attribution")).stream().map(p -> (String) ((Map<?, ?>) p).get("part")).toList();
            assertThat(parts).containsExactly("programFiles", "mapped", "sharedMemory", "threadStacks", "malloc");
            assertThat(MiniJson.number(json, "malloc")).isGreaterThan(0.25 * MiniJson.number(json, "rss"));
            assertThat(json.get("vm")).isEqualTo("not attached (--no-attach)");
            assertThat(json.get("direct")).isNull();
        } finally {
            AttachTargets.end(target);
        }
    }

    @Test
    void noAttachAndJmxExcludeEachOther() {
        InspectRun.Result result = InspectRun.run(ProcessHandle.current().pid(), "--no-attach", "--jmx");

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("--no-attach and --jmx exclude each other");
    }
}
