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

import dev.offheap.lab.report.ConsoleReport;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs experiments one after the other, each in a work directory of its own, printing progress and then its
 * tables. An experiment that throws is reported as failed and the next one runs.
 */
public final class LabRunner {
    private final LabContext.Scale scale;
    private final PrintStream out;

    public LabRunner(LabContext.Scale scale, PrintStream out) {
        this.scale = scale;
        this.out = out;
    }

    public List<Outcome> run(List<Experiment> experiments) {
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < experiments.size(); i++) {
            Experiment experiment = experiments.get(i);
            out.printf(Locale.ROOT, "[%d/%d] %s: %s%n", i + 1, experiments.size(), experiment.name(), experiment.title());
            out.flush();
            Outcome outcome = runOne(experiment);
            outcomes.add(outcome);
            ConsoleReport.print(outcome, out);
        }
        return outcomes;
    }

    private Outcome runOne(Experiment experiment) {
        long start = System.nanoTime();
        Path workDir = null;
        try {
            workDir = Files.createTempDirectory("offheap-lab-" + experiment.name() + "-");
            LabContext context = new LabContext(scale, workDir, new ConsoleProgress(out, experiment.name()),
                    javaCommand(), classPath());
            ExperimentResult result;
            MachineLoad.Reading load;
            try (MachineLoad sampling = MachineLoad.start()) {
                result = experiment.run(context);
                load = sampling.stop(experiment.busyThreads());
            }
            result = withLoad(result, load);
            boolean ran = !result.tables().isEmpty() || !result.charts().isEmpty();
            return new Outcome(result, ran ? Outcome.Status.OK : Outcome.Status.SKIPPED, seconds(start));
        } catch (Exception | LinkageError | OutOfMemoryError e) {
            String message = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            return new Outcome(new ExperimentResult(experiment.name(), experiment.title(), List.of(), List.of(),
                    List.of(), List.of("failed: " + message), Map.of("error", message)), Outcome.Status.FAILED,
                    seconds(start));
        } finally {
            if (workDir != null) {
                delete(workDir);
            }
        }
    }

    /**
     * The result with the machine's load: a note first (and a warning among the verdicts when the machine was
     * busy), and the figures in the raw results.
     */
    static ExperimentResult withLoad(ExperimentResult result, MachineLoad.Reading load) {
        String said = load.describe();
        if (said.isEmpty()) {
            return result;
        }
        List<String> notes = new ArrayList<>(List.of(said));
        notes.addAll(result.notes());
        List<String> verdicts = new ArrayList<>(result.verdicts());
        if (load.busy()) {
            verdicts.add("Measured on a busy machine (" + load.figures() + "): the figures above are less steady than"
                    + " on a quiet one; run the lab again when the machine is idle to confirm them.");
        }
        Map<String, Object> raw = new java.util.LinkedHashMap<>(result.raw() == null ? Map.of() : result.raw());
        Map<String, Object> machine = new java.util.LinkedHashMap<>();
        machine.put("loadAverageAtStart", load.loadAverage());
        machine.put("meanRunnableTasks", load.runnable());
        machine.put("cores", load.cores());
        machine.put("experimentThreads", load.ownThreads());
        machine.put("busy", load.busy());
        raw.put("machineLoad", machine);
        return new ExperimentResult(result.name(), result.title(), result.tables(), result.charts(), verdicts, notes,
                raw);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static List<String> classPath() {
        return List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // A work directory left in the temp directory is not worth failing the lab for.
        }
    }
}
