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

package dev.offheap.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one successful update of a shared word the way a Treiber stack does it: read the value, then
 * {@code AtomicLong.compareAndSet} it, again until the CAS succeeds. Input for the throughput model of
 * issue 15 (how many transfers a second one contended cache line sustains).
 *
 * <ul>
 *   <li>{@code uncontended}: one thread, one line: the cost of a locked CAS whose line stays in this core's
 *   cache.</li>
 *   <li>{@code sameLine}: two threads on the same line: every operation pulls the line from the other core,
 *   and some CASes fail and retry.</li>
 *   <li>{@code separateLines}: two threads, each on a line of its own (padded): the control, two threads
 *   without sharing.</li>
 * </ul>
 *
 * <p>The score is the average time per successful operation <em>per thread</em>; with {@code t} threads on
 * one line the line carries {@code t / score} successful updates a second (JMH's {@code thrpt} mode reports
 * that sum directly).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC})
public class ContendedCasBenchmark {

    /**
     * An {@code AtomicLong} followed by 128 bytes of padding (a subclass's fields come after its
     * superclass's), so that the value of one shares no line, nor an adjacent-line prefetch pair, with the
     * value of the next one allocated after it.
     */
    @SuppressWarnings("unused")
    static final class PaddedAtomicLong extends AtomicLong {
        long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
    }

    /** One line shared by every thread of the benchmark. */
    @State(Scope.Benchmark)
    public static class SharedLine {
        final AtomicLong line = new PaddedAtomicLong();
    }

    /** Lines allocated one after the other, padded apart; each thread takes its own. */
    @State(Scope.Benchmark)
    public static class Lines {
        final AtomicLong[] lines = new AtomicLong[8];
        final AtomicInteger taken = new AtomicInteger();

        @Setup
        public void setup() {
            for (int i = 0; i < lines.length; i++) {
                lines[i] = new PaddedAtomicLong();
            }
        }
    }

    @State(Scope.Thread)
    public static class OwnLine {
        AtomicLong line;

        @Setup
        public void setup(Lines lines) {
            line = lines.lines[lines.taken.getAndIncrement() % lines.lines.length];
        }
    }

    @Benchmark
    @Threads(1)
    public long uncontended(SharedLine shared) {
        return increment(shared.line);
    }

    @Benchmark
    @Threads(2)
    public long sameLine(SharedLine shared) {
        return increment(shared.line);
    }

    @Benchmark
    @Threads(2)
    public long separateLines(OwnLine own) {
        return increment(own.line);
    }

    /** Read, then CAS, until the CAS succeeds, as a Treiber stack's push or pop does. */
    private static long increment(AtomicLong line) {
        long v;
        do {
            v = line.get();
        } while (!line.compareAndSet(v, v + 1));
        return v;
    }
}
