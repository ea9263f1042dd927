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

package dev.offheap;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The outcome of a test's main class run in a JVM of its own, for tests whose failure mode is a JVM crash:
 * the child runs on this test's class path with native access, in {@code dir}, where a crash leaves its
 * {@code hs_err_<pid>.log} (summed up in {@link #crashReports()}: signal, frame, first stack lines; no core
 * dump).
 */
public record ChildJvm(int exitCode, String output, List<String> crashReports) {

    /**
     * Runs {@code main} with {@code args} and waits for it.
     *
     * @throws AssertionError if it does not end within {@code timeout} (it is killed)
     */
    public static ChildJvm run(Path dir, String maxHeap, Duration timeout, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return run(dir, maxHeap, List.of(), timeout, main, args);
    }

    /**
     * Runs {@code main} with {@code args} and the extra JVM options {@code jvmOptions}, and waits for it.
     *
     * @throws AssertionError if it does not end within {@code timeout} (it is killed)
     */
    public static ChildJvm run(Path dir, String maxHeap, List<String> jvmOptions, Duration timeout, Class<?> main,
            String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx" + maxHeap, "-XX:-CreateCoredumpOnCrash",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile(dir, "child-", ".log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            String threads = Waits.threadDump(process);
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError(main.getSimpleName() + " did not end within " + timeout + ":\n" + head(log)
                    + "\nits threads then:\n" + threads);
        }
        List<String> crashes;
        try (Stream<Path> files = Files.list(dir)) {
            crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err")).map(ChildJvm::crashSummary)
                    .toList();
        }
        return new ChildJvm(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), crashes);
    }

    /**
     * A crash report's name, signal, problematic frame and first Java frames: the test's temporary directory
     * (and the report with it) is gone by the time anyone reads the failure.
     */
    private static String crashSummary(Path report) {
        try {
            List<String> lines = Files.readAllLines(report, StandardCharsets.ISO_8859_1);
            StringBuilder s = new StringBuilder(report.getFileName().toString());
            lines.stream().filter(l -> l.startsWith("#  SIG") || l.startsWith("# J ") || l.startsWith("# C ")
                    || l.startsWith("# V ")).forEach(l -> s.append("\n  ").append(l.strip()));
            int stack = lines.indexOf(lines.stream().filter(l -> l.startsWith("Native frames:")).findFirst()
                    .orElse(""));
            if (stack >= 0) {
                lines.stream().skip(stack + 1).limit(8).forEach(l -> s.append("\n  ").append(l.strip()));
            }
            return s.toString();
        } catch (IOException e) {
            return report.getFileName() + " (unreadable: " + e.getMessage() + ")";
        }
    }

    /** The first lines of the output, enough to read a crash or a stack trace in a failure message. */
    public String head() {
        return output.lines().limit(30).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    private static String head(Path log) throws IOException {
        return new ChildJvm(0, Files.readString(log, StandardCharsets.UTF_8), List.of()).head();
    }
}
