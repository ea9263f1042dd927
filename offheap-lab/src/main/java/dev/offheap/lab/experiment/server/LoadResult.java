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

import java.util.Arrays;
import java.util.List;

/**
 * What one load run measured, by wrk or by {@link EchoLoad}: completed requests (or echoed messages) over the
 * run's duration, latency percentiles and maximum in milliseconds, and errors of every kind summed (for wrk:
 * connect, read, write, timeout and non-2xx/3xx responses).
 *
 * @param requests completed requests or echoes
 * @param seconds  the run's duration
 * @param p50Ms    median latency
 * @param p99Ms    99th percentile
 * @param p999Ms   99.9th percentile
 * @param maxMs    the slowest
 * @param errors   failed connections, reads, writes, timeouts, bad statuses or echoes
 */
public record LoadResult(long requests, double seconds, double p50Ms, double p99Ms, double p999Ms, double maxMs,
        long errors) {
    /** The first word of {@link #line()}: how a load client in a JVM of its own answers a run. */
    public static final String ANSWER = "load";
    private static final List<String> FIELDS = List.of("requests", "seconds", "p50_ms", "p99_ms", "p999_ms",
            "max_ms", "errors");

    /** Completed requests per second. */
    public double requestsPerSecond() {
        return requests / seconds;
    }

    /**
     * The figures on one line, exactly (NaN as {@code NaN}), e.g. {@code load requests=1000 seconds=1.0
     * p50_ms=0.5 p99_ms=2.0 p999_ms=3.0 max_ms=4.0 errors=0}.
     */
    public String line() {
        List<Object> values = List.of(requests, seconds, p50Ms, p99Ms, p999Ms, maxMs, errors);
        StringBuilder line = new StringBuilder(ANSWER);
        for (int i = 0; i < FIELDS.size(); i++) {
            line.append(' ').append(FIELDS.get(i)).append('=').append(values.get(i));
        }
        return line.toString();
    }

    /** The figures of a {@link #line()}. */
    public static LoadResult parse(String line) {
        String[] words = line.strip().split("\\s+");
        if (words.length != FIELDS.size() + 1 || !words[0].equals(ANSWER)) {
            throw new IllegalArgumentException("not a load answer: " + line);
        }
        String[] v = new String[FIELDS.size()];
        for (int i = 0; i < v.length; i++) {
            String prefix = FIELDS.get(i) + "=";
            if (!words[i + 1].startsWith(prefix)) {
                throw new IllegalArgumentException("expected " + prefix + " in the load answer: " + line);
            }
            v[i] = words[i + 1].substring(prefix.length());
        }
        return new LoadResult(Long.parseLong(v[0]), Double.parseDouble(v[1]), Double.parseDouble(v[2]),
                Double.parseDouble(v[3]), Double.parseDouble(v[4]), Double.parseDouble(v[5]), Long.parseLong(v[6]));
    }

    /** The figures of a run from its latencies in nanoseconds (nearest-rank percentiles). */
    static LoadResult of(long[] latenciesNanos, double seconds, long errors) {
        long[] sorted = latenciesNanos.clone();
        Arrays.sort(sorted);
        return new LoadResult(sorted.length, seconds, percentileMs(sorted, 50), percentileMs(sorted, 99),
                percentileMs(sorted, 99.9), percentileMs(sorted, 100), errors);
    }

    /** Nearest rank: the smallest value with at least {@code p} % of the values at or below it; NaN if none. */
    static double percentileMs(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        // 99.9 / 100 * 1000 is 999.0000000000001 in doubles: without the tolerance p99.9 of 1000 values is the max
        int rank = (int) Math.ceil(p / 100.0 * sorted.length - 1e-9);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)] / 1e6;
    }
}
