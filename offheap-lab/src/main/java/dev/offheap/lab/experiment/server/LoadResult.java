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
    /** Completed requests per second. */
    public double requestsPerSecond() {
        return requests / seconds;
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
