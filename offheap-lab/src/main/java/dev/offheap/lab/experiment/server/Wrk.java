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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code wrk} load generator, when it is installed: finding it on the PATH, running it, reading its output. */
public final class Wrk {
    /** What wrk reported; latencies in milliseconds, NaN where it did not say. */
    public record Report(double requestsPerSecond, double p50Ms, double p99Ms, double maxMs) {}

    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern MAX = Pattern.compile("Latency\\s+\\S+\\s+\\S+\\s+([0-9.]+)(us|ms|s)");

    private Wrk() {}

    /** {@code wrk} on the PATH, as {@code command -v wrk} would find it. */
    public static Optional<String> find() {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "wrk");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }

    public static Report run(String wrk, String url, int connections, long millis)
            throws IOException, InterruptedException {
        long seconds = Math.max(1, Math.round(millis / 1000.0));
        Process process = new ProcessBuilder(List.of(wrk, "-t1", "-c" + connections, "-d" + seconds + "s",
                "--latency", url)).redirectErrorStream(true).start();
        if (!process.waitFor(seconds + 20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("wrk did not finish in time");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("wrk exited with " + process.exitValue() + ": " + output.strip());
        }
        return parse(output);
    }

    static Report parse(String output) {
        Matcher rate = RATE.matcher(output);
        if (!rate.find()) {
            throw new IllegalArgumentException("no Requests/sec in wrk's output");
        }
        Matcher max = MAX.matcher(output);
        return new Report(Double.parseDouble(rate.group(1)), percentile(output, "50"), percentile(output, "99"),
                max.find() ? millis(max.group(1), max.group(2)) : Double.NaN);
    }

    private static double percentile(String output, String p) {
        Matcher m = Pattern.compile("(?m)^\\s*" + p + "(?:\\.0+)?%\\s+([0-9.]+)(us|ms|s)\\s*$").matcher(output);
        return m.find() ? millis(m.group(1), m.group(2)) : Double.NaN;
    }

    private static double millis(String value, String unit) {
        double v = Double.parseDouble(value);
        return switch (unit.toLowerCase(Locale.ROOT)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }
}
