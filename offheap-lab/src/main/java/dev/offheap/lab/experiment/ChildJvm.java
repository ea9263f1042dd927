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

package dev.offheap.lab.experiment;

import dev.offheap.lab.LabContext;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this lab in a child JVM with options, bounded in time, and collects its output. */
public final class ChildJvm {
    /** What the child printed; {@code exitCode} is -1 when it had to be killed at the deadline. */
    public record Outcome(int exitCode, List<String> stdout, String stderr) {
        /** The {@code key=value} lines of stdout. */
        public Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : stdout) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.contains(" ")) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                } else if (eq > 0 && line.startsWith("outcome=")) {
                    values.put("outcome", line.substring(eq + 1));
                }
            }
            return values;
        }

        public boolean ok() {
            return exitCode == 0;
        }

        /** A one-line reason for a failed run. */
        public String failure() {
            String first = stderr.lines().filter(l -> !l.isBlank()).findFirst().orElse("");
            return (exitCode == -1 ? "killed at its deadline" : "exit code " + exitCode) + (first.isEmpty() ? ""
                    : ": " + first);
        }
    }

    private final LabContext context;

    public ChildJvm(LabContext context) {
        this.context = context;
    }

    public Outcome run(List<String> jvmOptions, Class<?> main, List<String> args, long deadlineMillis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(context.javaCommand());
        command.addAll(jvmOptions);
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(String.join(File.pathSeparator, context.classPath()));
        command.add(main.getName());
        command.addAll(args);
        Files.createDirectories(context.workDir());
        Path out = Files.createTempFile(context.workDir(), "child", ".out");
        Path err = Files.createTempFile(context.workDir(), "child", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .start();
            int code;
            if (process.waitFor(deadlineMillis, TimeUnit.MILLISECONDS)) {
                code = process.exitValue();
            } else {
                process.destroyForcibly().waitFor();
                code = -1;
            }
            return new Outcome(code, Files.readAllLines(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
