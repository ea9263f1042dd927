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

import dev.offheap.lab.LabContext;
import dev.offheap.lab.LabContext.Scale;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs JMH benchmarks through its API with the lab's scale: in-process at {@link Scale#TINY}, one fork of five
 * short iterations after a second of warm-up at {@link Scale#QUICK}, two forks of five one-second iterations at
 * {@link Scale#FULL}. Every score is a {@link Range} over the measured iterations; a noisy one (another process
 * took the core for part of an iteration) is measured once more and the steadier of the two kept. JMH's own
 * console output is dropped; the lab prints its tables.
 */
final class Jmh {
    /** The flags of every fork: a fixed heap (allocateDirect's cost follows the heap size), Netty's best path. */
    static final List<String> FORK_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-Dio.netty.allocator.useCacheForAllThreads=true", "-Dio.netty.leakDetection.level=disabled");

    /**
     * One score: the benchmark method's simple name, its parameters, the nanoseconds per operation of each
     * measured iteration.
     */
    record Score(String method, Map<String, String> params, Range nanos) {}

    /** Runs benchmarks: JMH in the lab, a fake in tests. */
    @FunctionalInterface
    interface Runs {
        List<Score> run(Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
                List<String> extraFlags, boolean forceFork) throws RunnerException;
    }

    private final LabContext context;
    private final Runs runs;
    private final List<String> problems = new ArrayList<>();
    private final List<String> remeasured = new ArrayList<>();
    private final List<String> stillNoisy = new ArrayList<>();
    private long lockWaitMillis;

    Jmh(LabContext context) {
        this.context = context;
        this.runs = this::runJmh;
    }

    Jmh(LabContext context, Runs runs) {
        this.context = context;
        this.runs = runs;
    }

    /**
     * Like {@link #run}, but a run that fails (a JVM flag this JDK refuses, memory it cannot get) gives no
     * scores and a line in {@link #notes}, so that the experiment's other strategies still run.
     */
    List<Score> tryRun(String what, Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
            List<String> extraFlags, boolean forceFork) {
        try {
            return run(what, benchmark, methodRegex, params, extraFlags, forceFork);
        } catch (RunnerException | RuntimeException e) {
            problems.add("skipped " + what + ": " + e.getMessage());
            return List.of();
        }
    }

    /** An experiment's notes: what could not run first, then what was noisy, then {@code more}. */
    List<String> notes(String... more) {
        List<String> notes = new ArrayList<>(problems);
        if (lockWaitMillis > 0) {
            notes.add("waited " + (lockWaitMillis + 500) / 1000 + " s for another JMH run on this machine to end"
                    + " (JMH's lock, jmh.lock in the temporary directory): two benchmarks at once disturb each other");
        }
        notes.addAll(noiseNotes());
        notes.addAll(List.of(more));
        return notes;
    }

    /** What was measured twice because its iterations disagreed, and what stayed noisy. */
    private List<String> noiseNotes() {
        List<String> notes = new ArrayList<>();
        if (!remeasured.isEmpty()) {
            notes.add("measured again because their iterations disagreed by more than "
                    + Math.round(Range.NOISY_SPREAD * 100) + "% (another process took the core): "
                    + String.join(", ", remeasured) + "; the steadier measurement is shown");
        }
        if (!stillNoisy.isEmpty()) {
            notes.add("too noisy here even when measured again (ranges wide, verdicts on them say too close to"
                    + " call): " + String.join(", ", stillNoisy));
        }
        return notes;
    }

    /**
     * Runs the methods of {@code benchmark} matching {@code methodRegex} with the parameters given, adding
     * {@code extraFlags} to the fork's JVM flags; {@code forceFork} runs in a fork even at tiny scale.
     */
    List<Score> run(Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
            List<String> extraFlags, boolean forceFork) throws RunnerException {
        return run(benchmark.getSimpleName(), benchmark, methodRegex, params, extraFlags, forceFork);
    }

    /** As {@link #run(Class, String, Map, List, boolean)}; {@code what} names the figures in the notes. */
    private List<Score> run(String what, Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
            List<String> extraFlags, boolean forceFork) throws RunnerException {
        List<Score> scores = new ArrayList<>(runs.run(benchmark, methodRegex, params, extraFlags, forceFork));
        for (int i = 0; i < scores.size(); i++) {
            scores.set(i, steadier(what, benchmark, methodRegex.contains("|"), scores.get(i), extraFlags, forceFork));
        }
        return scores;
    }

    /** {@code first}, or if it is noisy, the steadier of it and one more measurement of the same figure. */
    private Score steadier(String what, Class<?> benchmark, boolean severalMethods, Score first, List<String> extraFlags,
            boolean forceFork) throws RunnerException {
        if (!first.nanos().isNoisy()) {
            return first;
        }
        String label = label(what, severalMethods ? first.method() : "", first.params());
        remeasured.add(label);
        Map<String, List<String>> exact = new java.util.TreeMap<>();
        first.params().forEach((k, v) -> exact.put(k, List.of(v)));
        Score again = runs.run(benchmark, first.method(), exact, extraFlags, forceFork).stream()
                .filter(s -> s.method().equals(first.method()) && s.params().equals(first.params()))
                .findFirst().orElse(first);
        Score steadier = again.nanos().spread() < first.nanos().spread() ? again : first;
        if (steadier.nanos().isNoisy()) {
            stillNoisy.add(label);
        }
        return steadier;
    }

    /** "offheap pool at size=128": what ran, the method where it ran several, the parameters of the figure. */
    private static String label(String what, String method, Map<String, String> params) {
        String values = params.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
        return what + (method.isEmpty() ? "" : " " + method) + (values.isEmpty() ? "" : " at " + values);
    }

    private List<Score> runJmh(Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
            List<String> extraFlags, boolean forceFork) throws RunnerException {
        Scale scale = context.scale();
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + benchmark.getName().replace(".", "\\.") + "\\.(" + methodRegex + ")$")
                .shouldFailOnError(true)
                .timeUnit(TimeUnit.NANOSECONDS)
                .verbosity(VerboseMode.SILENT);
        params.forEach((name, values) -> options.param(name, values.toArray(String[]::new)));
        switch (scale) {
            case TINY -> options.warmupIterations(1).warmupTime(TimeValue.milliseconds(20))
                    .measurementIterations(3).measurementTime(TimeValue.milliseconds(10));
            // A second of warm-up: after 150 ms, allocate(128) still ran in code C2 had not finished (47 ns
            // instead of 11 ns, the figure of a plain JMH run).
            case QUICK -> options.warmupIterations(5).warmupTime(TimeValue.milliseconds(200))
                    .measurementIterations(5).measurementTime(TimeValue.milliseconds(100));
            case FULL -> options.warmupIterations(5).warmupTime(TimeValue.seconds(1))
                    .measurementIterations(5).measurementTime(TimeValue.seconds(1));
        }
        int forks = switch (scale) {
            case TINY -> forceFork ? 1 : 0;
            case QUICK -> 1;
            case FULL -> 2;
        };
        options.forks(forks);
        if (forks > 0) {
            List<String> flags = new ArrayList<>(FORK_FLAGS);
            flags.addAll(extraFlags);
            options.jvm(context.javaCommand()).jvmArgs(flags.toArray(String[]::new));
        }
        PrintStream silent = new PrintStream(OutputStream.nullOutputStream());
        Runner runner = new Runner(options.build(), OutputFormatFactory.createFormatInstance(silent, VerboseMode.SILENT));
        List<Score> scores = new ArrayList<>();
        Collection<RunResult> results;
        try {
            results = runAlone(runner);
        } catch (RunnerException e) {
            throw new RunnerException(benchmark.getSimpleName() + " " + methodRegex + ": " + rootCause(e), e);
        }
        for (RunResult result : results) {
            var p = result.getParams();
            String method = p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.') + 1);
            Map<String, String> values = new java.util.TreeMap<>();
            for (String key : p.getParamsKeys()) {
                values.put(key, p.getParam(key));
            }
            var statistics = result.getPrimaryResult().getStatistics();
            scores.add(new Score(method, values, new Range(statistics.getPercentile(50), statistics.getMin(),
                    statistics.getMax(), (int) statistics.getN())));
        }
        return scores;
    }

    /**
     * JMH takes a lock for the whole machine ({@code jmh.lock} in the temporary directory) so that two
     * benchmarks never disturb each other, and refuses to run while another JMH run holds it. The lab waits, up
     * to {@link #LOCK_WAIT_MILLIS}, for the other run to end, and the experiment's notes say so. (The lab's own
     * tests give their JVM a temporary directory of its own, so that a developer's benchmark beside the test
     * suite never holds theirs: offheap-lab's pom.)
     */
    private Collection<RunResult> runAlone(Runner runner) throws RunnerException {
        long start = System.nanoTime();
        while (true) {
            try {
                Collection<RunResult> results = runner.run();
                long waited = (System.nanoTime() - start) / 1_000_000;
                if (waited >= LOCK_POLL_MILLIS) {
                    lockWaitMillis += waited;
                }
                return results;
            } catch (RunnerException e) {
                long waited = (System.nanoTime() - start) / 1_000_000;
                if (!rootCause(e).contains("Unable to acquire the JMH lock") || waited >= LOCK_WAIT_MILLIS) {
                    throw e;
                }
                try {
                    Thread.sleep(LOCK_POLL_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** How long a quick or full run waits for another JMH run to give the lock up. */
    static final long LOCK_WAIT_MILLIS = 15 * 60 * 1000;
    private static final long LOCK_POLL_MILLIS = 1000;

    /** What went wrong inside JMH: it wraps the benchmark's exceptions as suppressed ones. */
    private static String rootCause(Throwable e) {
        Throwable t = e;
        while (true) {
            if (t.getSuppressed().length > 0) {
                t = t.getSuppressed()[0];
            } else if (t.getCause() != null && t.getCause() != t) {
                t = t.getCause();
            } else {
                return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
            }
        }
    }
}
