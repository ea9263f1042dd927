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

package dev.offheap.lab;

import dev.offheap.lab.report.HtmlReport;
import dev.offheap.lab.report.JsonReport;
import dev.offheap.lab.report.Machine;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** {@code offheap lab}: runs the experiments, prints their tables, writes report.html and results.json. */
public final class LabMain {
    private LabMain() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** Runs the lab; returns the exit code: 0, 1 if an experiment failed or a report could not be written, 2 for bad options. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        List<Experiment> all = Experiments.all();
        List<String> names = all.stream().map(Experiment::name).toList();
        LabOptions options;
        try {
            options = LabOptions.parse(args, names);
        } catch (LabOptions.BadOption e) {
            err.println("offheap lab: " + e.getMessage());
            err.println(LabOptions.USAGE.formatted(String.join(", ", names)));
            return 2;
        }
        if (options.help()) {
            out.println(LabOptions.USAGE.formatted(String.join(", ", names)));
            return 0;
        }
        List<Experiment> selected = options.only().isEmpty() ? all
                : all.stream().filter(e -> options.only().contains(e.name())).toList();
        String started = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        out.println("offheap lab " + options.describe());
        out.println("machine: " + Machine.describe());
        out.println("jdk:     " + Machine.jdk());
        out.println();
        long start = System.nanoTime();
        List<Outcome> outcomes = new LabRunner(options.scale(), out).run(selected);
        double seconds = (System.nanoTime() - start) / 1e9;
        LabRun run = new LabRun(Machine.describe(), Machine.jdk(), options.describe(), started, seconds, outcomes);
        int code = outcomes.stream().anyMatch(o -> o.status() == Outcome.Status.FAILED) ? 1 : 0;
        try {
            Files.createDirectories(options.out());
            Path html = options.out().resolve("report.html");
            Path json = options.out().resolve("results.json");
            Files.writeString(html, HtmlReport.render(run));
            Files.writeString(json, JsonReport.render(run));
            out.printf(Locale.ROOT, "%nLab done in %.0f s. Report: %s, raw results: %s%n", seconds,
                    html.toAbsolutePath(), json.toAbsolutePath());
        } catch (IOException e) {
            err.println("offheap lab: could not write the report to " + options.out() + ": " + e.getMessage());
            return 1;
        }
        return code;
    }
}
