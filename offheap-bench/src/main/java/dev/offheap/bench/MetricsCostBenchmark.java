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

import dev.offheap.buffer.BufferPool;
import dev.offheap.metrics.OffheapEvents;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What monitoring costs a buffer's life: {@link AcquireReleaseBenchmark}'s acquire, use and release on the
 * default pool, with its metrics on or off.
 *
 * <ul>
 *   <li>{@code off}: {@code jmx(false)} and no JFR recording.</li>
 *   <li>{@code on}: the pool and its budget registered in JMX, and a JFR recording running with every offheap
 *       event enabled (and nothing else, so that the JDK's own events do not count as offheap's cost).</li>
 * </ul>
 *
 * Both charge the pool's budget per slab, as every pool does. Run with e.g.
 * {@code java -jar offheap-bench/target/benchmarks.jar MetricsCostBenchmark -f 1 -wi 3 -i 5}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Threads(1)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS})
public class MetricsCostBenchmark {

    @Param({"1024"})
    int size;

    @Param({"off", "on"})
    String metrics;

    private Allocator alloc;
    private Recording recording;

    @Setup(Level.Trial)
    public void setup() {
        boolean on = switch (metrics) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("metrics must be on or off: " + metrics);
        };
        if (on) {
            recording = new Recording();
            OffheapEvents.ALL.forEach(recording::enable);
            recording.start();
        }
        alloc = new Allocator.Offheap(BufferPool.builder().name("metrics-cost").jmx(on).build(), size);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        alloc.close();
        if (recording != null) {
            recording.close();
        }
    }

    @Benchmark
    public Object acquireRelease() {
        Allocator a = alloc;
        Object handle = a.acquire();
        a.release(handle);
        return handle;
    }
}
