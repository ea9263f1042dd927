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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Control;

/**
 * A buffer acquired on one thread and released on another, the shape of every server: a producer thread
 * acquires a buffer, writes its first long and last byte, and hands it over through a bounded
 * single-producer single-consumer ring ({@link SpscRing}, {@value #RING_CAPACITY} slots); a consumer thread
 * takes it and releases it. Allocators as in {@link AcquireReleaseBenchmark} but for {@code arena-confined},
 * whose segments cannot leave their thread; {@code heap} and {@code direct} are kept as references (their
 * "release" is dropping the reference and leaving the rest to the GC). {@code handoff} allocates nothing
 * (preallocated buffers handed out in turn, release a no-op, see {@link Allocator.Handoff}): its score is
 * the floor, the hand-off alone, and the difference to it is what an allocator adds.
 *
 * <p>Sizes: a fixed size in bytes, or {@code random}: each acquire asks for the next size of a fixed,
 * seeded table of {@value RandomSizes#COUNT} sizes, log-uniform from {@value RandomSizes#MIN} B to
 * {@value RandomSizes#MAX} B ({@link RandomSizes}); every fork and allocator gets the same sequence.
 *
 * <p>Scores: JMH reports the group {@code transfer} (total thread time over total operations of both
 * threads: the time per buffer handed over, when both sides keep up) and each side on its own
 * ({@code transfer:produce}, {@code transfer:consume}). Usually the producer is ahead and waits for room,
 * so the ring runs full: up to {@value #RING_CAPACITY} buffers are in flight. Per-operation secondary
 * results of the group, such as {@code gc.alloc.rate.norm}, divide by the operations of both threads, so
 * they are half the bytes per buffer handed over.
 *
 * <p>Waiting: a side that finds the ring full (producer) or empty (consumer) spins a little, then yields,
 * and checks {@link Control#stopMeasurement} each round, so that neither side waits forever for a partner
 * that JMH has already stopped at the end of an iteration. A producer stopped that way releases its buffer
 * itself. Buffers left in the ring at the end of an iteration are taken by the consumer in the next one,
 * and released in {@code @TearDown} at the end of the trial.
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.UNSAFE_ALLOW, ForkFlags.NETTY_CACHE_ALL, ForkFlags.NETTY_NO_LEAK_DETECTION})
public class CrossThreadBenchmark {
    static final int RING_CAPACITY = 1024;
    /** Busy spins before a waiting side starts to yield its core (the machine may have only two). */
    private static final int SPINS = 100;

    static final String RANDOM = "random";

    @Param({"128", "1024", "16384", "65536", RANDOM})
    String size;

    @Param({"offheap", "offheap-noleak", "offheap-checked", "offheap-nocache", "heap", "direct", "netty-pooled",
            "netty-adaptive", "handoff"})
    String allocator;

    private Allocator alloc;
    private SpscRing ring;
    /** The random sizes, or null for a fixed size; read by the producer only. */
    private int[] sizes;
    private int nextSize;

    @Setup(Level.Trial)
    public void setup() {
        if (allocator.equals("arena-confined")) {
            throw new IllegalArgumentException("arena-confined segments cannot be used by another thread");
        }
        if (size.equals(RANDOM)) {
            sizes = RandomSizes.table();
            alloc = Allocator.create(allocator, RandomSizes.MAX);
        } else {
            alloc = Allocator.create(allocator, Integer.parseInt(size));
        }
        ring = new SpscRing(RING_CAPACITY);
        if (allocator.startsWith("netty")) {
            Allocator.printNettyPath(allocator, alloc);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (Object handle; (handle = ring.poll()) != null; ) {
            alloc.release(handle);
        }
        alloc.close();
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(1)
    public void produce(Control control) {
        int[] random = sizes;
        Object handle = random == null
                ? alloc.acquire()
                : alloc.acquire(random[nextSize++ & (RandomSizes.COUNT - 1)]);
        int waits = 0;
        while (!ring.offer(handle)) {
            if (control.stopMeasurement) {
                alloc.release(handle);
                return;
            }
            backOff(++waits);
        }
    }

    @Benchmark
    @Group("transfer")
    @GroupThreads(1)
    public void consume(Control control) {
        Object handle;
        int waits = 0;
        while ((handle = ring.poll()) == null) {
            if (control.stopMeasurement) {
                return;
            }
            backOff(++waits);
        }
        alloc.release(handle);
    }

    private static void backOff(int waits) {
        if (waits < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
