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

import dev.offheap.lab.experiment.GcExperiment.Chase;
import dev.offheap.lab.experiment.GcExperiment.ChaseRun;
import dev.offheap.lab.experiment.GcExperiment.Loop;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;

/** Fixed results of the gc experiment's runs, for its tables, charts and verdicts. */
final class GcFigures {
    static final double NAN = Double.NaN;

    private GcFigures() {}

    private static Samples ms(long... millis) {
        return new Samples(LongStream.of(millis).map(m -> m * 1_000_000).toArray());
    }

    /** Pauses of 1 to 200 ms: max 200 ms, p99 198 ms. */
    private static Samples oneToTwoHundredMs() {
        return ms(LongStream.rangeClosed(1, 200).toArray());
    }

    static final Loop G1_DIRECT = new Loop("G1 direct", 100_000, ms(2, 10, 120), 5.5, 200 * 1024, 64L << 20, null);
    static final Loop G1_HEAP = new Loop("G1 heap", 150_000, oneToTwoHundredMs(), 0.2, 150 * 1024, 0, null);
    static final Loop G1_POOL = new Loop("G1 pool", 200_000, new Samples(new long[] {500_000}), 0, 100 * 1024,
            8L << 20, null);
    static final Loop ZGC_DIRECT_FAILED = new Loop("ZGC direct", NAN, new Samples(new long[0]), NAN, -1, -1,
            "exit code 1");
    static final Loop ZGC_HEAP = new Loop("ZGC heap", 80_000, new Samples(new long[] {100_000, 200_000}), 1.5,
            300 * 1024, 0, null);
    static final Loop ZGC_POOL = new Loop("ZGC pool", 120_000, new Samples(new long[] {50_000}), 0.75, 250 * 1024,
            16L << 20, null);

    static final List<Loop> LOOPS = List.of(G1_DIRECT, G1_HEAP, G1_POOL, ZGC_DIRECT_FAILED, ZGC_HEAP, ZGC_POOL);

    private static List<Double> rss(double mib) {
        return Collections.nCopies(11, mib);
    }

    /** One KiB over the 256 MiB container cap. */
    static final ChaseRun OVER_CAP = new ChaseRun(new Chase("direct, -Xmx512m", "direct", List.of("-Xmx512m")),
            rss(256), 256 * 1024 + 1, "ran 15.0 s, 2048 MiB allocated");
    /** Exactly at the 256 MiB container cap. */
    static final ChaseRun AT_CAP = new ChaseRun(new Chase("direct, -Xmx512m -XX:MaxDirectMemorySize=32m", "direct",
            List.of("-Xmx512m", "-XX:MaxDirectMemorySize=32m")), rss(256), 256 * 1024,
            "OutOfMemoryError: Cannot reserve 1024 bytes of direct buffer memory");
    static final ChaseRun POOL = new ChaseRun(new Chase("offheap pool, released, budget 32 MiB", "pool",
            List.of("-Xmx512m")), rss(80), 80 * 1024, "ran 15.0 s");
    static final ChaseRun LEAK_FAILED = new ChaseRun(new Chase("offheap pool, never released, budget 32 MiB",
            "pool-leak", List.of("-Xmx512m")), rss(NAN), -1, "exit code 137");

    static final List<ChaseRun> CHASES = List.of(OVER_CAP, AT_CAP, POOL, LEAK_FAILED);
}
