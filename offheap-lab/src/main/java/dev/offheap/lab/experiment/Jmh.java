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
 * Runs JMH benchmarks through its API with the lab's scale: in-process at {@link Scale#TINY}, one short fork
 * at {@link Scale#QUICK}, proper forks and iterations at {@link Scale#FULL}. JMH's own console output is
 * dropped; the lab prints its tables.
 */
final class Jmh {
    /** The flags of every fork: a fixed heap (allocateDirect's cost follows the heap size), Netty's best path. */
    static final List<String> FORK_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
            "-Dio.netty.allocator.useCacheForAllThreads=true", "-Dio.netty.leakDetection.level=disabled");

    /** One score: the benchmark method's simple name, its parameters, the mean in nanoseconds per operation. */
    record Score(String method, Map<String, String> params, double nanos) {}

    private final LabContext context;
    private final List<String> problems = new ArrayList<>();

    Jmh(LabContext context) {
        this.context = context;
    }

    /**
     * Like {@link #run}, but a run that fails (a JVM flag this JDK refuses, memory it cannot get) gives no
     * scores and a line in {@link #problems()}, so that the experiment's other strategies still run.
     */
    List<Score> tryRun(String what, Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
            List<String> extraFlags, boolean forceFork) {
        try {
            return run(benchmark, methodRegex, params, extraFlags, forceFork);
        } catch (RunnerException | RuntimeException e) {
            problems.add("skipped " + what + ": " + e.getMessage());
            return List.of();
        }
    }

    /** What {@link #tryRun} could not run, and why. */
    List<String> problems() {
        return problems;
    }

    /** An experiment's notes: what could not run first, then {@code more}. */
    List<String> notes(String... more) {
        List<String> notes = new ArrayList<>(problems);
        notes.addAll(List.of(more));
        return notes;
    }

    /**
     * Runs the methods of {@code benchmark} matching {@code methodRegex} with the parameters given, adding
     * {@code extraFlags} to the fork's JVM flags; {@code forceFork} runs in a fork even at tiny scale.
     */
    List<Score> run(Class<?> benchmark, String methodRegex, Map<String, List<String>> params,
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
                    .measurementIterations(1).measurementTime(TimeValue.milliseconds(30));
            case QUICK -> options.warmupIterations(1).warmupTime(TimeValue.milliseconds(150))
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(150));
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
            results = runner.run();
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
            scores.add(new Score(method, values, result.getPrimaryResult().getScore()));
        }
        return scores;
    }

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
