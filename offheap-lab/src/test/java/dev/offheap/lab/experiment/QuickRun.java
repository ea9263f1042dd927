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

import dev.offheap.lab.Experiment;
import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.LabContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs experiments by name at a scale and prints their results: {@code QuickRun QUICK io gc server}. */
public final class QuickRun {
    public static void main(String[] args) throws Exception {
        LabContext.Scale scale = LabContext.Scale.valueOf(args[0]);
        for (int i = 1; i < args.length; i++) {
            Experiment e = switch (args[i]) {
                case "io" -> new IoExperiment();
                case "gc" -> new GcExperiment();
                default -> new ServerExperiment();
            };
            Path dir = Files.createTempDirectory("lab-" + e.name());
            long start = System.nanoTime();
            ExperimentResult r = e.run(Contexts.of(scale, dir));
            System.out.printf("== %s (%s) in %.1f s%n", r.name(), r.title(), (System.nanoTime() - start) / 1e9);
            for (ExperimentResult.Table t : r.tables()) {
                System.out.println("### " + t.title());
                System.out.println("| " + String.join(" | ", t.columns()) + " |");
                for (List<String> row : t.rows()) {
                    System.out.println("| " + String.join(" | ", row) + " |");
                }
            }
            r.charts().forEach(c -> System.out.println("chart " + c.title() + " " + c.categories() + " "
                    + c.series().stream().map(s -> s.name() + "=" + s.values()).toList()));
            r.verdicts().forEach(v -> System.out.println("verdict: " + v));
            r.notes().forEach(n -> System.out.println("note: " + n));
        }
    }
}
