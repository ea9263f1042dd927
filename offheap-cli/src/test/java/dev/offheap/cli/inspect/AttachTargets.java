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

import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Plain target JVMs for the attach tests, on JDK 25 (this one) or JDK 17: a class compiled here (by this JDK's javac)
 * for release 17 that keeps four 1 MiB direct buffers, prints READY and sleeps.
 */
final class AttachTargets {
    static final int DIRECT_BUFFERS = 4;
    /** Where a JDK 17 is looked for: the system property offheap.test.jdk17 (a JDK home), else these. */
    private static final List<String> JDK17_HOMES = List.of("/usr/lib/jvm/java-17-openjdk-amd64",
            "/usr/lib/jvm/temurin-17-jdk-amd64", "/usr/lib/jvm/java-17-openjdk");

    private static final String SOURCE = """
            public class IdleTarget {
                public static void main(String[] args) throws Exception {
                    java.util.List<java.nio.ByteBuffer> keep = new java.util.ArrayList<>();
                    for (int i = 0; i < %d; i++) {
                        keep.add(java.nio.ByteBuffer.allocateDirect(1 << 20));
                    }
                    System.out.println("READY");
                    System.out.flush();
                    Thread.sleep(Long.MAX_VALUE);
                    System.out.println(keep.size());
                }
            }
            """.formatted(DIRECT_BUFFERS);

    private AttachTargets() {}

    /** The command prefix that runs a program as user and group nobody (65534), without supplementary groups. */
    static final List<String> AS_NOBODY = List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");

    /** Skips the test unless this JVM runs as root and can start a program as user nobody ({@link #AS_NOBODY}). */
    static void assumeRootAndNobody() throws IOException {
        assumeThat(Files.getAttribute(Path.of("/proc/self"), "unix:uid")).as("running as root (the test starts a target"
                + " as user nobody and inspects it as root)").isEqualTo(0);
        assumeThat(Path.of(AS_NOBODY.get(0))).as("setpriv (util-linux) to start a target as user nobody").isExecutable();
    }

    /** The java of a JDK of that feature version: this JVM's for 25, a JDK 17 found on the machine for 17. */
    static Optional<Path> java(int feature) {
        if (feature == Runtime.version().feature()) {
            return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
        }
        if (feature != 17) {
            return Optional.empty();
        }
        String configured = System.getProperty("offheap.test.jdk17");
        Stream<String> homes = configured != null ? Stream.of(configured) : JDK17_HOMES.stream();
        return homes.map(home -> Path.of(home, "bin", "java")).filter(Files::isExecutable).findFirst();
    }

    /** The java for that version, or the test is skipped with the reason. */
    static Path requireJava(int feature) {
        Optional<Path> java = java(feature);
        assumeThat(java).as("a JDK " + feature + " (set -Doffheap.test.jdk17=JDK_HOME; looked in " + JDK17_HOMES
                + ")").isPresent();
        return java.orElseThrow();
    }

    /** A started target, ready (its READY read); destroy it after. */
    record Target(Process process, BufferedReader out) implements AutoCloseable {
        long pid() {
            return process.pid();
        }

        /** The names of its threads, as the kernel keeps them (at most 15 characters). */
        List<String> threadNames() throws IOException {
            List<String> names = new ArrayList<>();
            try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid()), "task"))) {
                for (Path task : tasks.toList()) {
                    try {
                        names.add(Files.readString(task.resolve("comm")).strip());
                    } catch (IOException e) {
                        // the thread ended meanwhile
                    }
                }
            }
            return names;
        }

        int threads() throws IOException {
            return Integer.parseInt(JvmAreas.status(Files.readString(Path.of("/proc", Long.toString(pid()), "status")))
                    .get("Threads"));
        }

        /** What it printed after READY so far, without waiting. */
        String laterOutput() throws IOException {
            StringBuilder text = new StringBuilder();
            while (out.ready()) {
                int c = out.read();
                if (c < 0) {
                    break;
                }
                text.append((char) c);
            }
            return text.toString();
        }

        @Override
        public void close() throws InterruptedException {
            end(process);
        }
    }

    /**
     * Ends a target JVM as an operator would, with SIGTERM, so that it removes its attach socket
     * ({@code /tmp/.java_pid<pid>}) on the way out; SIGKILL only if it has not ended after 30 s. A killed JVM
     * leaves the socket behind, where a later process given the same pid would find it.
     */
    /** A third-party jar the build copies to {@code target/test-targets} (pom.xml), by the start of its name. */
    static Path thirdPartyJar(String prefix) throws IOException {
        try (Stream<Path> files = Files.list(Path.of("target/test-targets"))) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + prefix + "*.jar in target/test-targets: the build copies it"));
        }
    }

    /**
     * Starts a target whose first line out is {@code READY} once it holds the state a test inspects (its errors go
     * to this JVM's), and waits for that line.
     */
    static Process startReady(ProcessBuilder builder) throws IOException, InterruptedException {
        Process target = builder.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (!"READY".equals(first)) {
            end(target);
            throw new AssertionError("the target printed " + first + " instead of READY: " + builder.command());
        }
        return target;
    }

    static void end(Process process) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    static Target start(Path java, Path dir, Map<String, String> environment, String... options) throws IOException {
        return start(List.of(), java, dir, environment, options);
    }

    /**
     * A target started through {@code prefix} (a command that runs the rest, as {@link #AS_NOBODY} or
     * {@code unshare}); the returned process is the prefix's when it does not exec the JVM.
     */
    static Target start(List<String> prefix, Path java, Path dir, Map<String, String> environment, String... options)
            throws IOException {
        Path classes = compile(dir);
        // Every thread of the JVM's own starts at launch (GC workers and compiler threads are otherwise added on
        // demand, at any moment: a GC during a test made "GC Thread#1" look like a thread an attach started).
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(java.toString(), "-Xmx256m", "-XX:-UseDynamicNumberOfGCThreads",
                "-XX:-UseDynamicNumberOfCompilerThreads"));
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", classes.toString(), "IdleTarget"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            if (line.equals("READY")) {
                return new Target(process, out);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("the target ended before READY: " + command);
    }

    static Target start(Path java, Path dir, String... options) throws IOException {
        return start(java, dir, Map.of(), options);
    }

    private static Path compile(Path dir) throws IOException {
        Path classes = dir.resolve("classes");
        if (Files.exists(classes.resolve("IdleTarget.class"))) {
            return classes;
        }
        Files.createDirectories(classes);
        Path source = Files.writeString(dir.resolve("IdleTarget.java"), SOURCE);
        // this JDK's javac as a program: the tests run in the module dev.offheap.cli, which does not read java.compiler
        Path javac = Path.of(System.getProperty("java.home"), "bin", "javac");
        Process process = new ProcessBuilder(javac.toString(), "--release", "17", "-d", classes.toString(),
                source.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (process.waitFor() != 0) {
                throw new IllegalStateException("javac failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return classes;
    }
}
