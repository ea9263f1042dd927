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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code wrk} with a Lua script whose {@code done()} prints the figures on one line, from
 * {@code latency:percentile(...)} (wrk's own text rounds p99.9 away and prints units).
 */
public final class ScriptedWrk {
    static final String MARKER = "offheap-wrk";

    /** The script: one line of {@code key=value} pairs, latencies in microseconds as wrk keeps them. */
    static final String SCRIPT = """
            done = function(summary, latency, requests)
              local e = summary.errors
              io.write(string.format("%s requests=%d duration_us=%d p50_us=%.1f p99_us=%.1f p999_us=%.1f"
                .. " max_us=%.1f connect=%d read=%d write=%d status=%d timeout=%d\\n",
                "offheap-wrk", summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
                latency:percentile(99.9), latency.max, e.connect, e.read, e.write, e.status, e.timeout))
            end
            """;

    private ScriptedWrk() {}

    /** Writes the script into {@code dir} and returns its path. */
    public static Path writeScript(Path dir) throws IOException {
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("offheap-wrk-done.lua"), SCRIPT);
    }

    /** Runs {@code wrk -t<threads> -c<connections> -d<seconds>s --latency -s script url} and reads its line. */
    public static LoadResult run(String wrk, Path script, String url, int threads, int connections, int seconds)
            throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(wrk, "-t" + threads, "-c" + connections, "-d" + seconds + "s",
                "--latency", "-s", script.toString(), url)).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(seconds + 30L, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("wrk did not finish in time");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("wrk exited with " + process.exitValue() + ": " + text.strip());
        }
        return parse(text);
    }

    /** The figures of the script's line in wrk's output. */
    static LoadResult parse(String output) {
        String line = output.lines().filter(l -> l.startsWith(MARKER + " ")).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no '" + MARKER + "' line in wrk's output: "
                        + output.strip()));
        Map<String, String> values = new HashMap<>();
        for (String pair : line.substring(MARKER.length()).trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                values.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        long errors = 0;
        for (String kind : List.of("connect", "read", "write", "status", "timeout")) {
            errors += Long.parseLong(value(values, kind));
        }
        return new LoadResult(Long.parseLong(value(values, "requests")),
                Long.parseLong(value(values, "duration_us")) / 1e6, micros(values, "p50_us"),
                micros(values, "p99_us"), micros(values, "p999_us"), micros(values, "max_us"), errors);
    }

    private static double micros(Map<String, String> values, String key) {
        return Double.parseDouble(value(values, key)) / 1000;
    }

    private static String value(Map<String, String> values, String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("wrk's line has no " + key);
        }
        return v;
    }
}
