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

package dev.offheap.lab.experiment.server;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A server main running in a child JVM of its own, with the same options for every configuration:
 * {@code -Xmx}, {@code --enable-native-access=ALL-UNNAMED} (unless turned off) and a gc log, nothing else (so
 * Netty runs as shipped on this JDK). It is driven through its {@link AdminConsole}.
 */
public final class ServerProcess implements AutoCloseable {
    private static final long START_SECONDS = 60;
    private static final long ANSWER_SECONDS = 60;

    private final ConsoleProcess console;
    private final Path gcLog;
    private final int port;

    private ServerProcess(ConsoleProcess console, Path gcLog) throws IOException, InterruptedException {
        this.console = console;
        this.gcLog = gcLog;
        String first = console.next(AdminConsole.PORT, START_SECONDS);
        this.port = Integer.parseInt(first.substring(AdminConsole.PORT.length()).trim());
    }

    /** The JVM options of every server but its gc log: the same heap limit, native access for the class path. */
    public static List<String> jvmOptions(String heap, boolean nativeAccess) {
        return nativeAccess ? List.of("-Xmx" + heap, "--enable-native-access=ALL-UNNAMED") : List.of("-Xmx" + heap);
    }

    /**
     * Starts {@code main} with {@code jvmOptions} (see {@link #jvmOptions}) and {@code args} and waits until it
     * listens. Its gc log and standard error go to files named after {@code name} in {@code dir}.
     */
    public static ServerProcess start(String java, List<String> classPath, List<String> jvmOptions, Path dir,
            String name, Class<?> main, List<String> args) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path gcLog = dir.resolve(name + ".gc.log");
        Files.deleteIfExists(gcLog);
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add(GcPauses.option(gcLog));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(main.getName());
        command.addAll(args);
        ConsoleProcess console = ConsoleProcess.start("the server", command, dir.resolve(name + ".stderr"));
        try {
            return new ServerProcess(console, gcLog);
        } catch (IOException | RuntimeException | InterruptedException e) {
            console.kill();
            throw e;
        }
    }

    /** The port the server listens on (loopback). */
    public int port() {
        return port;
    }

    /** The server's process id. */
    public long pid() {
        return console.pid();
    }

    /** A field of the server's {@code /proc/<pid>/status} in KiB, e.g. {@link ProcMemory#PEAK_RSS}. */
    public long kib(String field) {
        return ProcMemory.kib(console.pid(), field);
    }

    /** The pauses in the server's gc log so far, in milliseconds. */
    public List<Double> gcPauses() throws IOException {
        return GcPauses.read(gcLog);
    }

    /** Sends {@code idle} (trim and collect) and returns the RSS in KiB the server answers with. */
    public long idle() throws IOException, InterruptedException {
        return ask(AdminConsole.IDLE).rssKib();
    }

    /**
     * Sends {@code idle} if {@code trim}, else {@code collect} ({@code System.gc()} only), and returns what
     * the server answers.
     */
    public AdminConsole.Reading idle(boolean trim) throws IOException, InterruptedException {
        return ask(trim ? AdminConsole.IDLE : AdminConsole.COLLECT);
    }

    /** Sends {@code memory}: the server reads its RSS and its allocator's memory, and does nothing else. */
    public AdminConsole.Reading memory() throws IOException, InterruptedException {
        return ask(AdminConsole.MEMORY);
    }

    private AdminConsole.Reading ask(String command) throws IOException, InterruptedException {
        console.send(command);
        return AdminConsole.Reading.parse(console.next(AdminConsole.ANSWER + " ", ANSWER_SECONDS));
    }

    /** What the server printed on standard error so far (warnings, exceptions). */
    public List<String> stderrLines() {
        return console.stderrLines();
    }

    /** Sends {@code stop}, waits a little, then kills the server if it is still there. */
    @Override
    public void close() throws InterruptedException {
        console.close();
    }
}
