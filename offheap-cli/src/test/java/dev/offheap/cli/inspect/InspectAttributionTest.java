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

import static dev.offheap.cli.inspect.InspectTarget.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts a JVM, inspects it, lets it allocate known amounts of every kind, inspects it again: each amount
 * must show in its part within 5 %, and less than 10 % of RSS may stay unexplained.
 */
@Tag("child-jvm")
class InspectAttributionTest {
    private static final double TOLERANCE = 0.05;

    @ParameterizedTest(name = "NativeMemoryTracking={0}")
    @ValueSource(strings = {"off", "summary"})
    void attributesEveryKnownAllocationWithin5Percent(String nmt, @TempDir Path dir) throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        System.out.println("target with -XX:NativeMemoryTracking=" + nmt);
        Process target = start(nmt, dir.resolve("mapped.bin"));
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            awaitLine(lines, "BASELINE");
            Map<String, Object> before = inspect(target.pid());
            target.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
            target.getOutputStream().flush();
            awaitLine(lines, "READY");
            Map<String, Object> after = inspect(target.pid());

            SoftAssertions softly = new SoftAssertions();
            double mallocBlocks = (double) InspectTarget.MALLOC_BLOCKS * InspectTarget.MALLOC_CHUNK_BYTES;
            double direct = (double) InspectTarget.DIRECT_BUFFERS * InspectTarget.DIRECT_BUFFER_BYTES;
            assertGrew(softly, before, after, "heap", InspectTarget.HEAP_BYTES);
            assertGrew(softly, before, after, "details.heap.used", InspectTarget.HEAP_BYTES);
            assertGrew(softly, before, after, "direct", direct);
            assertGrew(softly, before, after, "mapped", InspectTarget.MAPPED_BYTES);
            assertGrew(softly, before, after, "details.mapped.capacity", InspectTarget.MAPPED_BYTES);
            assertGrew(softly, before, after, "offheap", (double) InspectTarget.POOL_LEASES * InspectTarget.POOL_LEASE_BYTES);
            assertGrew(softly, before, after, "malloc", direct + mallocBlocks);
            assertGrew(softly, before, after, "details.malloc.inUse", direct + mallocBlocks / 2);
            assertGrew(softly, before, after, "details.malloc.free", mallocBlocks / 2);
            double rss = MiniJson.number(after, "rss");
            System.out.printf("unexplained %.0f of RSS %.0f: %.2f %%%n", MiniJson.number(after, "unexplained"), rss,
                    100 * MiniJson.number(after, "unexplained") / rss);
            softly.assertThat(MiniJson.number(after, "unexplained") / rss).as("unexplained share of RSS").isLessThan(0.10);
            softly.assertThat(MiniJson.number(after, "details.malloc.fragmentation")).as("fragmentation").isGreaterThan(0.3);
            softly.assertThat(MiniJson.number(before, "offheap")).isZero();
            softly.assertAll();
        } finally {
            AttachTargets.end(target);
        }
    }

    /**
     * Issue 12's sparse case: offheap counts the 128 MiB written of a 22.4 GiB array, not its addresses, and
     * malloc keeps the arena's 192 MiB.
     */
    @Test
    void aSparseArrayCountsItsResidentPagesAndMallocKeepsTheArenasMemory() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process target = new ProcessBuilder(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), SparseTarget.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            awaitLine(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)), "READY");
            Map<String, Object> json = inspect(target.pid());

            double offheap = MiniJson.number(json, "offheap");
            System.out.printf("sparse: offheap %.0f, malloc %.0f, unexplained %.0f of RSS %.0f%n", offheap,
                    MiniJson.number(json, "malloc"), MiniJson.number(json, "unexplained"), MiniJson.number(json, "rss"));
            assertThat(offheap).isCloseTo(SparseTarget.TOUCHED_BYTES, within(SparseTarget.TOUCHED_BYTES * 0.10));
            assertThat(MiniJson.number(json, "malloc")).isGreaterThanOrEqualTo(180.0 * MIB);
            assertThat(((Number) MiniJson.get(json, "details.offheap.0.reserved")).doubleValue()).isGreaterThanOrEqualTo(22.0 * 1024 * MIB);
        } finally {
            AttachTargets.end(target);
        }
    }

    private static void assertGrew(SoftAssertions softly, Map<String, Object> before, Map<String, Object> after, String path, double expected) {
        double grown = MiniJson.number(after, path) - MiniJson.number(before, path);
        System.out.printf("%-28s grew %12.0f, expected %12.0f: error %+.2f %%%n", path, grown, expected,
                100 * (grown - expected) / expected);
        softly.assertThat(grown).as(path + " grew by (MiB: %.1f)", grown / MIB).isCloseTo(expected, within(expected * TOLERANCE));
    }

    private static Map<String, Object> inspect(long pid) {
        Map<String, Object> json = InspectRun.json(pid, "--jmx"); // the buffer pools and offheap's MBeans need JMX
        assertThat(json).containsKeys("pid", "rss", "heap", "direct", "mapped", "malloc", "offheap", "unexplained");
        return json;
    }

    private static Process start(String nmt, Path mappedFile) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // C1 only: C2's compiler arenas, malloc'd and freed while the target allocates, would blur malloc's figures.
        List<String> command = List.of(java, "-XX:TieredStopAtLevel=1", "-Xmx1g", "-Xmn4m", "-XX:+UseG1GC", "-XX:NativeMemoryTracking=" + nmt,
                "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), InspectTarget.class.getName(), mappedFile.toString());
        return new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void awaitLine(BufferedReader lines, String expected) throws IOException {
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.equals(expected)) {
                return;
            }
        }
        throw new AssertionError("the target JVM ended before printing " + expected);
    }

}
