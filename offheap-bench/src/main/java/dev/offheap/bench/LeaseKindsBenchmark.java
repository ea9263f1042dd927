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

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.buffer.LeaseTokens;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The two kinds of lease of one pool, acquire + a byte written + release on one thread: a handle
 * ({@code BufferPool.acquire}, used through {@code segment()} or {@code byteBuffer()}) against a token
 * ({@code pool.tokens()}, used through {@code segment(token)}, or also {@code byteBuffer(token)} as Netty's
 * socket path takes it). {@code -prof gc} shows what each allocates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS})
public class LeaseKindsBenchmark {
    @Param({"128", "1024", "65536"})
    int size;

    private BufferPool pool;
    private LeaseTokens tokens;
    private byte next;

    @Setup(Level.Trial)
    public void setup() {
        pool = BufferPool.create();
        tokens = pool.tokens();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
    }

    @Benchmark
    public BufferLease handleSegment() {
        BufferLease lease = pool.acquire(size);
        lease.segment().set(ValueLayout.JAVA_BYTE, 0, next++);
        lease.release();
        return lease;
    }

    @Benchmark
    public BufferLease handleByteBuffer() {
        BufferLease lease = pool.acquire(size);
        lease.byteBuffer().put(0, next++);
        lease.release();
        return lease;
    }

    @Benchmark
    public long tokenSegment() {
        long token = tokens.acquire(size);
        MemorySegment memory = tokens.segment(token);
        memory.set(ValueLayout.JAVA_BYTE, 0, next++);
        tokens.release(token);
        return token;
    }

    @Benchmark
    public long tokenOnly() {
        long token = tokens.acquire(size);
        tokens.release(token);
        return token;
    }

    @Benchmark
    public BufferLease handleOnly() {
        BufferLease lease = pool.acquire(size);
        lease.release();
        return lease;
    }

    @Benchmark
    public long tokenSegmentAndByteBuffer() {
        long token = tokens.acquire(size);
        MemorySegment memory = tokens.segment(token);
        memory.set(ValueLayout.JAVA_BYTE, 0, next++);
        tokens.byteBuffer(token).put(1, next);
        tokens.release(token);
        return token;
    }
}
