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

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.LabRun;
import dev.offheap.lab.Outcome;
import dev.offheap.lab.experiment.GcExperiment.ChaseRun;
import dev.offheap.lab.experiment.ServerExperiment.Run;
import dev.offheap.lab.experiment.server.LoadClient;
import dev.offheap.lab.report.ConsoleReport;
import dev.offheap.lab.report.HtmlReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a report from fixed figures shaped like real runs (gc, io, server without wrk, a log-scale alloc chart)
 * to look at in a browser without running the lab: {@code ReportPreview /tmp/charts/report.html}. Prints the
 * console report too.
 */
public final class ReportPreview {
    private static final double NAN = Double.NaN;

    public static void main(String[] args) throws Exception {
        List<Outcome> outcomes = List.of(ok(alloc()), ok(gc()), ok(io()), ok(server()));
        outcomes.forEach(o -> ConsoleReport.print(o, System.out));
        Path html = Path.of(args[0]);
        Files.createDirectories(html.toAbsolutePath().getParent());
        Files.writeString(html, HtmlReport.render(new LabRun("AMD EPYC, 2 CPUs, 24 GiB, Linux",
                "Eclipse Adoptium OpenJDK 64-Bit Server VM 25.0.3+9-LTS", "--quick", "2025-06-01T10:00:00Z", 104,
                outcomes)));
    }

    private static Outcome ok(ExperimentResult result) {
        return new Outcome(result, Outcome.Status.OK, 12.3);
    }

    private static ExperimentResult alloc() {
        List<String> sizes = List.of("128 B", "1 KiB", "16 KiB", "64 KiB", "1 MiB", "16 MiB");
        Chart chart = new Chart("Get and give back one buffer", "ns per operation", true, sizes, List.of(
                new Series("offheap pool", List.of(17.2, 17.5, 17.9, 18.3, 21.0, 29.2)),
                new Series("Netty pooled", List.of(72.8, 72.1, 72.7, 90.0, 1200.0, 382_540.0)),
                new Series("Arena.ofConfined()", List.of(59.7, 70.0, 178.2, 600.0, 12_000.0, 225_020.0)),
                new Series("allocate", List.of(47.6, 150.0, 2220.0, 9000.0, 45_000.0, 729_930.0)),
                new Series("allocateDirect", List.of(411.0, 900.0, 7690.0, 20_000.0, 400_000.0, 7_520_000.0)),
                new Series("allocate, TLAB off", List.of(126.9, 300.0, 4000.0, NAN, NAN, NAN))));
        return new ExperimentResult("alloc", "Get and give back a buffer of 128 B to 16 MiB", List.of(), List.of(chart),
                List.of("offheap pool is cheapest"), List.of(), Map.of());
    }

    /** The chases' RSS rising, flat, and cut short (NaN after a failure). */
    private static ExperimentResult gc() {
        List<ChaseRun> chases = new ArrayList<>();
        double[][] rss = {
                {40, 110, 190, 260, 330, 400, 470, 540, 610, 690, 763},
                {40, 80, 105, 111, 111, 111, 111, 111, 111, 111, 111},
                {40, 85, 92, 93, 93.5, 93.5, 93, 93.5, 93.5, 93.5, 93.5},
                {40, 90, 110, 114, NAN, NAN, NAN, NAN, NAN, NAN, NAN}};
        for (int i = 0; i < rss.length; i++) {
            ChaseRun fixed = GcFigures.CHASES.get(i);
            chases.add(new ChaseRun(fixed.chase(), Arrays.stream(rss[i]).boxed().toList(), fixed.peakKib(),
                    fixed.outcome()));
        }
        return new GcExperiment().result(GcFigures.LOOPS, chases, 4000, 3000);
    }

    private static ExperimentResult io() {
        Map<String, Range> ms = new LinkedHashMap<>();
        ms.put("heap", Range.of(4.1, 4.0, 4.3));
        ms.put("direct", Range.of(2.6, 2.5, 2.8));
        ms.put("pool", Range.of(2.2, 2.1, 2.4));
        ms.put("transferTo", Range.of(1.1, 1.0, 1.2));
        return new IoExperiment().result(ms, List.of("the pool is fastest"), List.of(), 4 << 20);
    }

    /** Without wrk: its columns are dashes in every row. */
    private static ExperimentResult server() {
        Map<String, Run> runs = new LinkedHashMap<>();
        long[] latencies = {900_000, 1_200_000, 3_400_000, 9_800_000};
        double rate = 2100;
        for (String strategy : ServerExperiment.STRATEGIES) {
            runs.put(strategy, new Run(new LoadClient.Load((long) (rate * 2), latencies, 2.0, 0),
                    new Samples(latencies), null));
            rate += 137;
        }
        return new ServerExperiment().result(runs, List.of("wrk is not installed"), null);
    }
}
