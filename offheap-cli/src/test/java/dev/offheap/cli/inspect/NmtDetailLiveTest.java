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
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM with {@code -XX:NativeMemoryTracking=detail}, its {@code VM.native_memory detail} taken with that JDK's
 * own jcmd, parsed, and the committed parts of its thread stacks, metaspace and GC structures read in
 * {@code /proc/PID/pagemap}: each must hold resident pages, no more than NMT calls committed. JDK 17 is looked
 * for in {@code -Doffheap.jdk17=}, {@code $JDK17_HOME}, then {@code /usr/lib/jvm/*17*}; the test is skipped,
 * saying so, without one. The other run uses the JDK running the tests.
 */
@Tag("child-jvm")
class NmtDetailLiveTest {
    private static final String TARGET = """
            public class Sleeper {
                public static void main(String[] args) throws Exception {
                    for (int i = 0; i < 4; i++) {
                        Thread t = new Thread(() -> {
                            try {
                                Thread.sleep(Long.MAX_VALUE);
                            } catch (InterruptedException e) {
                            }
                        }, "sleeper-" + i);
                        t.setDaemon(true);
                        t.start();
                    }
                    System.out.println("READY");
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                }
            }
            """;

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(strings = {"17", "running the tests"})
    void stacksMetaspaceAndGcStructuresHaveResidentCommittedPages(String jdk, @TempDir Path dir) throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        Path home = jdk.equals("17") ? jdk17() : Path.of(System.getProperty("java.home"));
        assumeThat(home).as("no JDK 17 in -Doffheap.jdk17, $JDK17_HOME or /usr/lib/jvm").isNotNull();
        Path source = Files.writeString(dir.resolve("Sleeper.java"), TARGET);
        Process target = new ProcessBuilder(home.resolve("bin/java").toString(), "-XX:NativeMemoryTracking=detail", "-Xmx64m",
                "-XX:+UseG1GC", source.toString()).redirectErrorStream(true).start();
        try {
            awaitReady(target);
            String report = run(home.resolve("bin/jcmd").toString(), Long.toString(target.pid()), "VM.native_memory", "detail");

            NmtDetail detail = NmtDetail.parse(report);

            assertThat(detail).as(report).isNotNull();
            for (List<String> labels : List.of(List.of("STACK"), List.of("META", "CLASS"), List.of("GC"))) {
                List<AddressRange> committed = labels.stream().flatMap(l -> detail.committed(l).stream()).toList();
                long nmtCommitted = labels.stream().mapToLong(detail::committedBytes).sum();
                long resident = 0;
                for (long bytes : Pagemap.residentBytes(target.pid(), committed)) {
                    resident += bytes;
                }
                System.out.printf("JDK %s %s: %d committed parts, %d KiB committed, %d KiB resident%n", jdk, labels,
                        committed.size(), nmtCommitted >> 10, resident >> 10);
                assertThat(committed).as(labels.toString()).isNotEmpty();
                assertThat(resident).as(labels + " resident").isPositive().isLessThanOrEqualTo(nmtCommitted);
            }
        } finally {
            AttachTargets.end(target);
        }
    }

    /** A JDK 17 home with bin/java and bin/jcmd, or null. */
    private static Path jdk17() throws IOException {
        String configured = System.getProperty("offheap.jdk17", System.getenv("JDK17_HOME"));
        if (configured != null && !configured.isEmpty()) {
            return isJdk17(Path.of(configured)) ? Path.of(configured) : null;
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(NmtDetailLiveTest::isJdk17).sorted().findFirst().orElse(null);
        }
    }

    private static boolean isJdk17(Path home) {
        Path release = home.resolve("release");
        try {
            return Files.isExecutable(home.resolve("bin/java")) && Files.isExecutable(home.resolve("bin/jcmd"))
                    && Files.readString(release).contains("JAVA_VERSION=\"17");
        } catch (IOException e) {
            return false;
        }
    }

    private static void awaitReady(Process target) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line; (line = lines.readLine()) != null; ) {
            if (line.equals("READY")) {
                return;
            }
            seen.append(line).append('\n');
        }
        throw new AssertionError("the target JVM ended before printing READY:\n" + seen);
    }

    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }
}
