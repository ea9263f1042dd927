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

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A third-party JNI library that links its own allocator: DuckDB's JDBC driver (from Maven Central) extracts its
 * library to a temporary file and keeps its tables in the jemalloc built into it, which neither NMT nor glibc's
 * statistics see. inspect names it, gives it the memory no other part explains instead of calling that
 * unexplained, and its finding names DuckDB's setting and never sends the user to NMT.
 */
@Tag("child-jvm")
class DuckDbAllocatorTest {
    private static final long MIB = 1L << 20;

    @Test
    @SuppressWarnings("unchecked")
    void jemallocInsideDuckDbsLibraryIsNamedAndHoldsTheTable() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        assumeThat(System.getProperty("os.arch")).isEqualTo("amd64");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/DuckDbTable.java").toAbsolutePath();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", AttachTargets.thirdPartyJar("duckdb_jdbc-").toString(), program.toString(), "10000000"));
        try {
            Map<String, Object> json = InspectRun.json(target.pid());
            double rss = MiniJson.number(json, "rss");
            double jemalloc = MiniJson.part(json, "otherAllocator");
            System.out.printf("DuckDB: rss %.1f MiB, jemalloc in its library %.1f MiB, malloc %.1f MiB, unexplained %.1f MiB%n",
                    rss / MIB, jemalloc / MIB, MiniJson.number(json, "malloc") / MIB, MiniJson.number(json, "unexplained") / MIB);

            List<Map<String, Object>> allocators = (List<Map<String, Object>>) json.get("allocators");
            assertThat(allocators).singleElement().satisfies(a -> {
                assertThat(a.get("name")).isEqualTo("jemalloc");
                assertThat(Path.of(((String) a.get("library")).replace(" (deleted)", "")).getFileName().toString())
                        .startsWith("libduckdb_java");
                assertThat(a.get("linkedIn")).isEqualTo(true);
            });
            assertThat(jemalloc).as("the table: 10 M rows of 16 bytes").isGreaterThan(120 * MIB).isGreaterThan(0.3 * rss);
            assertThat(MiniJson.number(json, "unexplained") / rss).as("unexplained share").isLessThan(0.05);
            List<Map<String, Object>> findings = (List<Map<String, Object>>) json.get("findings");
            assertThat(findings).filteredOn(f -> f.get("id").equals("other-allocator")).singleElement()
                    .satisfies(f -> assertThat((String) f.get("text")).contains("DuckDB's memory_limit setting bounds it")
                            .doesNotContain("NativeMemoryTracking"));
            assertThat(findings).noneSatisfy(f -> assertThat((String) f.get("text")).contains("NativeMemoryTracking"));
        } finally {
            AttachTargets.end(target);
        }
    }
}
