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

import dev.offheap.lab.experiment.Range;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * One configuration of one workload over all rounds: each figure's median and range, and the median of its
 * requests per second relative to the best configuration of the same round (so a slow round does not count
 * against whoever ran in it). Failed runs (a failure, errors, or no request served) are left out of every
 * figure but {@code errors} and {@code failures}: a server that answers nothing is not fast.
 *
 * @param workload          the workload
 * @param config            the allocator or pool
 * @param requestsPerSecond req/s over the rounds
 * @param ratioToBest       median over the rounds of req/s divided by the best of the same round
 * @param p50Ms             median latency over the rounds
 * @param p99Ms             p99 over the rounds
 * @param p999Ms            p99.9 over the rounds
 * @param gcPauseTotalMs    total stop-the-world pause time of the measured run, over the rounds
 * @param gcPauseMaxMs      the longest pause of any round
 * @param heapBytesPerRequest bytes of heap the server allocated per request in the measured run, over the rounds
 * @param peakRssMib        peak RSS over the rounds
 * @param rssAfterIdleMib   RSS after idle over the rounds
 * @param errors            errors of every run, failed ones included
 * @param failures          why runs failed, by round
 */
public record Summary(Workload workload, String config, Range requestsPerSecond, double ratioToBest, Range p50Ms,
        Range p99Ms, Range p999Ms, Range gcPauseTotalMs, double gcPauseMaxMs, Range heapBytesPerRequest,
        Range peakRssMib, Range rssAfterIdleMib, long errors, List<String> failures) {

    /** A summary without the heap allocated per request. */
    public Summary(Workload workload, String config, Range requestsPerSecond, double ratioToBest, Range p50Ms,
            Range p99Ms, Range p999Ms, Range gcPauseTotalMs, double gcPauseMaxMs, Range peakRssMib,
            Range rssAfterIdleMib, long errors, List<String> failures) {
        this(workload, config, requestsPerSecond, ratioToBest, p50Ms, p99Ms, p999Ms, gcPauseTotalMs, gcPauseMaxMs,
                Range.NONE, peakRssMib, rssAfterIdleMib, errors, failures);
    }

    /** The summaries of {@code measurements}, by workload then configuration in their declared order. */
    public static List<Summary> of(List<Measurement> measurements) {
        List<Summary> summaries = new ArrayList<>();
        for (Workload w : Workload.values()) {
            for (String config : w.configs()) {
                List<Measurement> mine = measurements.stream()
                        .filter(m -> m.workload() == w && m.config().equals(config)).toList();
                if (!mine.isEmpty()) {
                    summaries.add(of(w, config, mine, measurements));
                }
            }
        }
        return summaries;
    }

    private static Summary of(Workload w, String config, List<Measurement> runs, List<Measurement> all) {
        List<String> failures = runs.stream().filter(m -> m.failure() != null)
                .map(m -> "round " + m.round() + ": " + m.failure()).toList();
        long errors = runs.stream().filter(m -> m.load() != null).mapToLong(m -> m.load().errors()).sum();
        List<Measurement> mine = runs.stream().filter(m -> m.failure() == null).toList();
        double[] ratios = mine.stream().mapToDouble(m -> m.requestsPerSecond() / all.stream()
                .filter(o -> o.workload() == w && o.round() == m.round() && o.failure() == null)
                .mapToDouble(Measurement::requestsPerSecond).filter(x -> !Double.isNaN(x)).max().orElse(Double.NaN))
                .toArray();
        double gcMax = mine.stream().mapToDouble(Measurement::gcPauseMaxMs).filter(x -> !Double.isNaN(x)).max()
                .orElse(Double.NaN);
        return new Summary(w, config, range(mine, Measurement::requestsPerSecond), Range.of(ratios).median(),
                range(mine, m -> load(m, LoadResult::p50Ms)), range(mine, m -> load(m, LoadResult::p99Ms)),
                range(mine, m -> load(m, LoadResult::p999Ms)), range(mine, Measurement::gcPauseTotalMs), gcMax,
                range(mine, Measurement::heapBytesPerRequest), range(mine, m -> mib(m.peakRssKib())),
                range(mine, m -> mib(m.rssAfterIdleKib())), errors, failures);
    }

    private static double load(Measurement m, ToDoubleFunction<LoadResult> figure) {
        return m.load() == null ? Double.NaN : figure.applyAsDouble(m.load());
    }

    private static double mib(long kib) {
        return kib < 0 ? Double.NaN : kib / 1024.0;
    }

    private static Range range(List<Measurement> ms, ToDoubleFunction<Measurement> figure) {
        return Range.of(ms.stream().mapToDouble(figure).toArray());
    }

    /** The medians and ranges for the JSON, as numbers. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", workload.id());
        m.put("config", config);
        m.put("rounds", requestsPerSecond.count());
        m.put("requestsPerSecond", range(requestsPerSecond));
        m.put("ratioToBestInRound", ratioToBest);
        m.put("p50Ms", range(p50Ms));
        m.put("p99Ms", range(p99Ms));
        m.put("p999Ms", range(p999Ms));
        m.put("gcPauseTotalMs", range(gcPauseTotalMs));
        m.put("gcPauseMaxMs", gcPauseMaxMs);
        m.put("heapBytesPerRequest", range(heapBytesPerRequest));
        m.put("peakRssBytes", range(peakRssMib.times(1 << 20)));
        m.put("rssAfterIdleBytes", range(rssAfterIdleMib.times(1 << 20)));
        m.put("errors", errors);
        m.put("failures", failures);
        return m;
    }

    static Map<String, Object> range(Range r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", r.median());
        m.put("min", r.min());
        m.put("max", r.max());
        return m;
    }
}
