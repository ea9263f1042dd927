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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One configuration of one workload in one round. Figures that could not be taken are NaN (or -1 for sizes);
 * {@code failure} says why, {@code stderr} is what the server printed on standard error (warnings included).
 *
 * @param load             the measured run (null if it failed)
 * @param gcPauses         stop-the-world pauses during the measured run
 * @param gcPauseTotalMs   their sum
 * @param gcPauseMaxMs     the longest (0 when none)
 * @param peakRssKib       {@code VmHWM} after the measured run (warm-up included)
 * @param rssAfterIdleKib  {@code VmRSS} a while after the load stopped and {@code idle} trimmed and collected
 *                         (or, with no trim call, {@code collect} collected)
 * @param idleSamples      the memory read while the server idled after the load, oldest first (none if not read)
 * @param allocatorBytesAfterIdle the direct memory the allocator held when {@link #rssAfterIdleKib} was read,
 *                         -1 if unknown
 * @param heapAllocatedBytes the bytes of Java heap the server allocated during the measured run, by every
 *                         thread (the admin console's readings just before and just after it), -1 if unknown
 */
public record Measurement(Workload workload, String config, int round, LoadResult load, int gcPauses,
        double gcPauseTotalMs, double gcPauseMaxMs, long peakRssKib, long rssAfterIdleKib, String failure,
        List<String> stderr, List<IdleSample> idleSamples, long allocatorBytesAfterIdle, long heapAllocatedBytes) {

    /** A measurement without the heap allocated. */
    public Measurement(Workload workload, String config, int round, LoadResult load, int gcPauses,
            double gcPauseTotalMs, double gcPauseMaxMs, long peakRssKib, long rssAfterIdleKib, String failure,
            List<String> stderr, List<IdleSample> idleSamples, long allocatorBytesAfterIdle) {
        this(workload, config, round, load, gcPauses, gcPauseTotalMs, gcPauseMaxMs, peakRssKib, rssAfterIdleKib,
                failure, stderr, idleSamples, allocatorBytesAfterIdle, -1);
    }

    /** A measurement without idle samples or allocator figure. */
    public Measurement(Workload workload, String config, int round, LoadResult load, int gcPauses,
            double gcPauseTotalMs, double gcPauseMaxMs, long peakRssKib, long rssAfterIdleKib, String failure,
            List<String> stderr) {
        this(workload, config, round, load, gcPauses, gcPauseTotalMs, gcPauseMaxMs, peakRssKib, rssAfterIdleKib,
                failure, stderr, List.of(), -1);
    }

    /** Keeps its own copy of the lists. */
    public Measurement {
        stderr = List.copyOf(stderr);
        idleSamples = List.copyOf(idleSamples);
    }

    /** A run that failed before it measured anything. */
    static Measurement failed(Workload workload, String config, int round, String failure, List<String> stderr) {
        return new Measurement(workload, config, round, null, 0, Double.NaN, Double.NaN, -1, -1, failure, stderr);
    }

    /** The idle sample taken {@code seconds} after the load, if one was. */
    public Optional<IdleSample> sampleAt(int seconds) {
        return idleSamples.stream().filter(x -> x.seconds() == seconds).findFirst();
    }

    /** Requests per second, NaN if the run failed. */
    public double requestsPerSecond() {
        return load == null ? Double.NaN : load.requestsPerSecond();
    }

    /**
     * The bytes of heap the server allocated per request (per echo, per call) the load completed in the
     * measured run; NaN if either is unknown or nothing was completed.
     */
    public double heapBytesPerRequest() {
        return heapAllocatedBytes < 0 || load == null || load.requests() == 0 ? Double.NaN
                : heapAllocatedBytes / (double) load.requests();
    }

    /** The raw figures for the JSON: numbers, not formatted text. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("workload", workload.id());
        m.put("config", config);
        m.put("round", round);
        m.put("requests", load == null ? null : load.requests());
        m.put("seconds", load == null ? null : load.seconds());
        m.put("requestsPerSecond", requestsPerSecond());
        m.put("p50Ms", load == null ? null : load.p50Ms());
        m.put("p99Ms", load == null ? null : load.p99Ms());
        m.put("p999Ms", load == null ? null : load.p999Ms());
        m.put("maxMs", load == null ? null : load.maxMs());
        m.put("errors", load == null ? null : load.errors());
        m.put("gcPauses", gcPauses);
        m.put("gcPauseTotalMs", gcPauseTotalMs);
        m.put("gcPauseMaxMs", gcPauseMaxMs);
        m.put("heapAllocatedBytes", heapAllocatedBytes < 0 ? null : heapAllocatedBytes);
        m.put("heapBytesPerRequest", heapBytesPerRequest());
        m.put("peakRssBytes", peakRssKib < 0 ? null : peakRssKib * 1024);
        m.put("rssAfterIdleBytes", rssAfterIdleKib < 0 ? null : rssAfterIdleKib * 1024);
        m.put("idleSamples", idleSamples.stream().map(IdleSample::json).toList());
        m.put("allocatorBytesAfterIdle", allocatorBytesAfterIdle < 0 ? null : allocatorBytesAfterIdle);
        m.put("failure", failure);
        m.put("stderr", stderr);
        return m;
    }
}
