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
import dev.offheap.lab.experiment.Ranking;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Plain-words verdicts on one workload's summaries that never overreach: a configuration is named best on a
 * figure only when it is ahead of the others by more than one run's noise and, over several rounds, when
 * the rounds' ranges do not overlap; each verdict says which figure decides.
 */
public final class Verdicts {
    /**
     * One run's noise in throughput and latency: client and server share two cores, and the same
     * configuration moves by up to ~10 % from run to run.
     */
    public static final double NOISE = 0.10;
    /**
     * Below this, differences in total GC pause time are noise whatever the ratio; the longest single pause
     * of the workload raises it (one young collection more or less inside the measured window is chance).
     */
    static final double GC_FLOOR_MS = 2;
    /** Below this, differences in p99 latency are noise whatever the ratio. */
    static final double LATENCY_FLOOR_MS = 0.05;
    /**
     * Below this, differences in heap bytes per request are noise whatever the ratio: what the measured run
     * allocates besides requests (its connections, the two readings of the total) spread over its requests.
     */
    static final double HEAP_FLOOR_BYTES = 16;
    /** Below this, differences in resident memory are noise whatever the ratio (heap sizing, page cache). */
    static final double RSS_FLOOR_MIB = 8;

    private Verdicts() {}

    /** The verdicts on one workload: throughput, p99, GC pauses, heap allocated per request, RSS after idle. */
    public static List<String> of(Workload workload, List<Summary> summaries) {
        List<Summary> measured = summaries.stream()
                .filter(s -> s.workload() == workload && s.requestsPerSecond().count() > 0).toList();
        if (measured.size() < 2) {
            return List.of(workload.title() + ": fewer than two configurations measured, nothing to compare");
        }
        List<String> verdicts = new ArrayList<>();
        verdicts.add(compare(workload.title() + ", throughput", "the median of req/s decides",
                values(measured, Summary::requestsPerSecond), true, NOISE, 0, "req/s"));
        verdicts.add(compare(workload.title() + ", p99 latency", "the median of p99 decides",
                values(measured, Summary::p99Ms), false, NOISE, LATENCY_FLOOR_MS, "ms"));
        double onePause = measured.stream().mapToDouble(Summary::gcPauseMaxMs).filter(p -> !Double.isNaN(p)).max()
                .orElse(0);
        verdicts.add(compare(workload.title() + ", GC pauses", "the median of the total pause time decides",
                values(measured, Summary::gcPauseTotalMs), false, NOISE, Math.max(GC_FLOOR_MS, onePause), "ms"));
        verdicts.add(compare(workload.title() + ", heap per request", "the median of the heap bytes the server"
                + " allocated per request decides", values(measured, Summary::heapBytesPerRequest), false, NOISE,
                HEAP_FLOOR_BYTES, "B"));
        verdicts.add(compare(workload.title() + ", RSS after idle", "the median of VmRSS after idle decides",
                values(measured, Summary::rssAfterIdleMib), false, NOISE, RSS_FLOOR_MIB, "MiB"));
        return verdicts;
    }

    private static Map<String, Range> values(List<Summary> summaries, Function<Summary, Range> figure) {
        Map<String, Range> values = new LinkedHashMap<>();
        for (Summary s : summaries) {
            Range r = figure.apply(s);
            if (r.count() > 0) {
                values.put(s.config(), r);
            }
        }
        return values;
    }

    /**
     * One figure's verdict. A configuration is apart from the best when their medians differ by more than
     * {@code noise} of the best's median and more than {@code floor}, and their ranges do not overlap.
     */
    static String compare(String what, String decider, Map<String, Range> values, boolean higherIsBetter,
            double noise, double floor, String unit) {
        if (values.size() < 2) {
            return what + ": fewer than two configurations have this figure, nothing to compare";
        }
        Ranking ranking = Ranking.of(values, higherIsBetter, noise, floor);
        if (ranking == null) {
            return what + ": fewer than two configurations have this figure, nothing to compare";
        }
        String best = ranking.best();
        Range top = values.get(best);
        List<String> apart = ranking.apart();
        List<String> close = ranking.close();
        String threshold = "one run's noise (" + Figures.percent(noise)
                + (floor > 0 ? ", at least " + Figures.number(floor) + " " + unit : "") + ")";
        if (close.isEmpty()) {
            return String.format(Locale.ROOT, "%s: %s is best (%s %s), ahead of every other configuration (%s)"
                    + " by more than %s; %s", what, best, Figures.number(top.median()), unit,
                    list(values, apart, unit), threshold, decider);
        }
        List<String> leaders = ranking.leaders();
        if (apart.isEmpty()) {
            return String.format(Locale.ROOT, "%s: no winner, every configuration is within %s of the best (%s);"
                    + " %s", what, threshold, list(values, leaders, unit), decider);
        }
        return String.format(Locale.ROOT, "%s: no single winner, %s lead within %s of each other, ahead of %s;"
                + " %s", what, list(values, leaders, unit), threshold, list(values, apart, unit), decider);
    }

    private static String list(Map<String, Range> values, List<String> configs, String unit) {
        List<String> parts = new ArrayList<>();
        for (String c : configs) {
            parts.add(c + " " + Figures.number(values.get(c).median()) + " " + unit);
        }
        return String.join(", ", parts);
    }
}
