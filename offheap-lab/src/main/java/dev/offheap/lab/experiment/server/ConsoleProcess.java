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

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM of the shootout driven by lines: commands on its standard input, answers on its standard output,
 * its standard error in a file. {@code stop} (the admin console's {@link AdminConsole#STOP}) or the end of its
 * input ends it.
 */
final class ConsoleProcess implements AutoCloseable {
    private final String what;
    private final Process process;
    private final Path stderr;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final OutputStream commands;

    private ConsoleProcess(String what, Process process, Path stderr) {
        this.what = what;
        this.process = process;
        this.stderr = stderr;
        this.commands = process.getOutputStream();
        Thread.ofPlatform().daemon().name("console-stdout-" + process.pid()).start(this::readStdout);
    }

    /**
     * Starts {@code command}, its standard error to the file {@code stderr}; {@code what} names it in errors,
     * e.g. {@code the server}.
     */
    static ConsoleProcess start(String what, List<String> command, Path stderr) throws IOException {
        return new ConsoleProcess(what, new ProcessBuilder(command).redirectError(stderr.toFile()).start(), stderr);
    }

    private void readStdout() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the process is gone; next() reports it
        }
    }

    /** Writes {@code command} as a line. */
    void send(String command) throws IOException {
        commands.write((command + "\n").getBytes(StandardCharsets.UTF_8));
        commands.flush();
    }

    /**
     * The next line that starts with {@code prefix} (lines before it are dropped), waiting up to {@code seconds};
     * an exception saying why if the process exits or says nothing of the kind in time.
     */
    String next(String prefix, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !process.isAlive() && lines.isEmpty()) {
                throw new IOException(what + " exited with " + process.exitValue() + ": " + firstError());
            }
        }
        throw new IOException(what + " did not print '" + prefix + "' within " + seconds + " s: " + firstError());
    }

    private String firstError() {
        return stderrLines().stream().filter(l -> !l.isBlank()).findFirst().orElse("nothing on stderr");
    }

    /** The process id. */
    long pid() {
        return process.pid();
    }

    /** What the process printed on standard error so far. */
    List<String> stderrLines() {
        try {
            return Files.readAllLines(stderr);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Kills the process at once and waits for it. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Sends {@code stop}, waits a little, then kills the process if it is still there. */
    @Override
    public void close() throws InterruptedException {
        try {
            send(AdminConsole.STOP);
            commands.close();
        } catch (IOException e) {
            // it is gone already
        }
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            kill();
        }
    }
}
