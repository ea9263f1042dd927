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

import dev.offheap.store.ElementType;
import dev.offheap.store.LongArray;
import dev.offheap.store.MappedArray;
import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one atomic element operation on one thread, no other process: offheap's {@link LongArray} of a
 * {@link MappedArray.Mode#SHARED} file against Agrona's {@link UnsafeBuffer} over a {@link MappedByteBuffer} of
 * the same file, over 1024 elements (8 KiB, in L1) per invocation. Both check every index (Agrona's bounds
 * checks are on by default). The cross-process figures are {@link SharedArrayPingPong}'s; this isolates what
 * each implementation adds to the instruction itself.
 *
 * <p>Run: {@code java -jar offheap-bench/target/benchmarks.jar SharedArrayOpsBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS,
        ForkFlags.UNSAFE_ALLOW, "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"})
@State(Scope.Thread)
public class SharedArrayOpsBenchmark {
    private static final int N = 1024;

    private Path dir;
    private MappedArray file;
    private LongArray longs;
    private UnsafeBuffer buffer;

    @Setup
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("shared-ops");
        Path path = dir.resolve("ops.npy");
        MappedArray.create(path, ElementType.LONG, N).close();
        file = MappedArray.open(path, MappedArray.Mode.SHARED);
        longs = file.longs();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            buffer = new UnsafeBuffer(mapped, 4096, N * 8);
        }
    }

    @TearDown
    public void tearDown() throws IOException {
        longs.close();
        file.close();
        Files.deleteIfExists(dir.resolve("ops.npy"));
        Files.deleteIfExists(dir);
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long offheapGetAcquire() {
        LongArray a = longs;
        long sum = 0;
        for (int i = 0; i < N; i++) {
            sum += a.getAcquire(i);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long agronaGetAcquire() {
        UnsafeBuffer b = buffer;
        long sum = 0;
        for (int i = 0; i < N; i++) {
            sum += b.getLongAcquire(i << 3);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void offheapSetRelease() {
        LongArray a = longs;
        for (int i = 0; i < N; i++) {
            a.setRelease(i, i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public void agronaPutRelease() {
        UnsafeBuffer b = buffer;
        for (int i = 0; i < N; i++) {
            b.putLongRelease(i << 3, i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public int offheapCompareAndSet() {
        LongArray a = longs;
        int done = 0;
        for (int i = 0; i < N; i++) {
            long v = a.get(i);
            done += a.compareAndSet(i, v, v + 1) ? 1 : 0;
        }
        return done;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public int agronaCompareAndSet() {
        UnsafeBuffer b = buffer;
        int done = 0;
        for (int i = 0; i < N; i++) {
            long v = b.getLong(i << 3);
            done += b.compareAndSetLong(i << 3, v, v + 1) ? 1 : 0;
        }
        return done;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long offheapGetAndAdd() {
        LongArray a = longs;
        long sum = 0;
        for (int i = 0; i < N; i++) {
            sum += a.getAndAdd(i, 1);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(N)
    public long agronaGetAndAdd() {
        UnsafeBuffer b = buffer;
        long sum = 0;
        for (int i = 0; i < N; i++) {
            sum += b.getAndAddLong(i << 3, 1);
        }
        return sum;
    }
}
