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
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 12's Inflater leak (8 threads leaking zlib state into glibc's arenas) inspected on JDK 25 and JDK 17,
 * with NMT and without: malloc holds the leak, the JVM's stacks, metaspace and (with NMT) GC structures are
 * never 0, and less than 10 % of RSS stays unexplained. JDK 17 has neither {@code System.native_heap_info} nor
 * {@code System.map}: the arenas are found by their layout and the JVM's parts by elimination.
 */
@Tag("child-jvm")
class InflaterLeakTest {
    /** Debian's JDK 17 (package openjdk-17-jdk-headless), the default java on the project's machines. */
    static final Path JDK17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");

    @ParameterizedTest(name = "JDK {0}, NativeMemoryTracking={1}")
    @CsvSource({"25, summary", "25, off", "17, summary", "17, off"})
    void theLeakIsMallocAndTheJvmsOwnPartsAreNeverZero(int jdk, String nmt) throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = jdk == 17 ? JDK17.toString() : ProcessHandle.current().info().command().orElseThrow();
        assumeThat(Files.isExecutable(Path.of(java))).as("JDK 17 is not installed at " + JDK17
                + " (Debian: apt-get install openjdk-17-jdk-headless)").isTrue();
        Path program = Path.of("src/test/resources/inspect/InflaterLeak.java").toAbsolutePath();
        Process target = AttachTargets.startReady(new ProcessBuilder(List.of(java, "-Xmx256m",
                "-XX:NativeMemoryTracking=" + nmt, program.toString())));
        try {
            Map<String, Object> json = InspectRun.json(target.pid());
            double rss = MiniJson.number(json, "rss");
            System.out.printf("JDK %d NMT %s: rss %.0f malloc %.0f stacks %.0f metaspace %.0f gc %s unexplained %.0f%n", jdk,
                    nmt, rss, MiniJson.number(json, "malloc"), MiniJson.part(json, "threadStacks"), MiniJson.part(json, "metaspace"),
                    MiniJson.part(json, "gc"), MiniJson.number(json, "unexplained"));

            SoftAssertions softly = new SoftAssertions();
            softly.assertThat(MiniJson.number(json, "malloc")).as("malloc").isGreaterThan(0.25 * rss);
            softly.assertThat(MiniJson.part(json, "threadStacks")).as("thread stacks").isPositive();
            softly.assertThat(MiniJson.part(json, "metaspace")).as("metaspace").isPositive();
            if (!nmt.equals("off")) {
                softly.assertThat(MiniJson.part(json, "gc")).as("GC structures").isPositive();
            }
            softly.assertThat(MiniJson.number(json, "unexplained") / rss).as("unexplained share").isLessThan(0.10);
            softly.assertAll();
        } finally {
            AttachTargets.end(target);
        }
    }
}
