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
 * The gRPC load client, {@link GrpcLoad}, in a JVM of its own for one configuration: its warm-up run warms the
 * client as much as the server, so that every configuration meets a client in the same state (a client in the
 * shootout's JVM would be colder for the first configurations measured than for the last).
 */
final class GrpcClientProcess implements LoadDriver {
    /** How long the client may take beyond its run: starting its JVM, the calls still out, its grace. */
    private static final long ANSWER_EXTRA_SECONDS = 90;

    private final ConsoleProcess console;

    private GrpcClientProcess(ConsoleProcess console) {
        this.console = console;
    }

    /**
     * Starts the client with {@code jvmOptions} against the server on {@code port} of the loopback interface,
     * {@code calls} calls in flight with messages of {@code size} bytes; its standard error goes to a file
     * named after {@code name} in {@code dir}.
     */
    static GrpcClientProcess start(String java, List<String> classPath, List<String> jvmOptions, Path dir,
            String name, int port, int calls, int size) throws IOException {
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classPath));
        command.add(GrpcLoad.class.getName());
        command.addAll(List.of("--port", Integer.toString(port), "--calls", Integer.toString(calls), "--size",
                Integer.toString(size)));
        return new GrpcClientProcess(ConsoleProcess.start("the gRPC client", command,
                dir.resolve(name + ".client.stderr")));
    }

    @Override
    public LoadResult run(int seconds) throws IOException, InterruptedException {
        console.send(GrpcLoad.RUN + " " + seconds * 1000L);
        return LoadResult.parse(console.next(LoadResult.ANSWER + " ", seconds + ANSWER_EXTRA_SECONDS));
    }

    /** What the client printed on standard error so far. */
    List<String> stderrLines() {
        return console.stderrLines();
    }

    @Override
    public void close() throws InterruptedException {
        console.close();
    }
}
