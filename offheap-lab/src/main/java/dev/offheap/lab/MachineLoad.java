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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * How busy the machine was while an experiment ran: the load average when it started and the mean number of
 * runnable tasks (the kernel's {@code procs_running}, every task on the machine, the lab's own included)
 * sampled every {@value #INTERVAL_MS} ms. More runnable tasks than cores means something else took CPU time
 * from the measurements. Where /proc cannot be read, nothing is known and nothing is said.
 */
final class MachineLoad implements AutoCloseable {
    static final long INTERVAL_MS = 200;

    /**
     * What was seen. {@code runnable} leaves out the sampling thread itself (always running when it reads);
     * NaN when nothing could be read.
     */
    record Reading(double loadAverage, double runnable, int samples, int cores, int ownThreads) {
        /** More runnable tasks than the cores, beyond the experiment's own extra threads. */
        boolean busy() {
            return samples > 0 && runnable > cores + ownThreads - 1;
        }

        /** The load average, the mean runnable tasks and the cores, in words. */
        String figures() {
            return String.format(Locale.ROOT, "load average %.2f at the start, %.1f runnable tasks on average on %d"
                    + " cores, %d of them this experiment's", loadAverage, runnable, cores, ownThreads);
        }

        /** One sentence for the console and the report; empty when nothing was read. */
        String describe() {
            if (samples == 0) {
                return "";
            }
            String figures = figures();
            return busy()
                    ? "the machine was busy while this ran (" + figures + "): other work took CPU time from the"
                            + " measurements; noisy figures were measured again, and verdicts whose ranges overlap"
                            + " say too close to call"
                    : "the machine was quiet enough (" + figures + ")";
        }
    }

    private final Path procStat;
    private final DoubleAdder runnable = new DoubleAdder();
    private final LongAdder samples = new LongAdder();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final double loadAverage;
    private final Thread sampler;

    private MachineLoad(Path procStat, Path loadavg) {
        this.procStat = procStat;
        this.loadAverage = loadAverage(loadavg);
        this.sampler = Thread.ofPlatform().daemon().name("lab-machine-load").start(this::sample);
    }

    /** Starts sampling the machine's /proc files. */
    static MachineLoad start() {
        return start(Path.of("/proc/stat"), Path.of("/proc/loadavg"));
    }

    /** Starts sampling these files, in the formats of /proc/stat and /proc/loadavg. */
    static MachineLoad start(Path procStat, Path loadavg) {
        return new MachineLoad(procStat, loadavg);
    }

    private void sample() {
        while (!stopped.get()) {
            double running = procsRunning(procStat);
            if (!Double.isNaN(running)) {
                runnable.add(Math.max(0, running - 1));
                samples.increment();
            }
            try {
                Thread.sleep(INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops sampling and says what was seen, for an experiment that keeps {@code ownThreads} running. */
    Reading stop(int ownThreads) {
        close();
        long n = samples.sum();
        return new Reading(loadAverage, n == 0 ? Double.NaN : runnable.sum() / n, (int) n,
                Runtime.getRuntime().availableProcessors(), ownThreads);
    }

    @Override
    public void close() {
        stopped.set(true);
        sampler.interrupt();
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static double procsRunning(Path procStat) {
        try {
            for (String line : Files.readAllLines(procStat)) {
                if (line.startsWith("procs_running ")) {
                    return Double.parseDouble(line.substring("procs_running ".length()).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or not readable: nothing known
        }
        return Double.NaN;
    }

    static double loadAverage(Path loadavg) {
        try {
            return Double.parseDouble(Files.readString(loadavg).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }
}
