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

import dev.offheap.store.ChunkPool;
import dev.offheap.store.Contents;
import dev.offheap.store.DoubleArray;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
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
 * What the chunk size costs when an array is made and given back: the input behind
 * {@code ChunkPool.DEFAULT_CHUNK_SIZE}. Element access does not depend on it on Linux (every array is one
 * address range), so the trade-off is the number of mappings (one {@code mmap} per chunk when the free chunks
 * are scattered, and {@code vm.max_map_count}) against the waste at each array's end (half a chunk on average).
 *
 * <p>The pool's free chunks are scattered on purpose in setup (chunks handed out one by one to small arrays,
 * released in random order), the worst case for mapping: every chunk of the next array maps on its own.
 * {@code uninitialized} isolates the mapping and the arena; {@code zeroed} adds clearing the reused chunks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {ForkFlags.HEAP_MIN, ForkFlags.HEAP_MAX, ForkFlags.GC, ForkFlags.NATIVE_ACCESS})
public class ChunkSizeBenchmark {

    @Param({"1048576", "4194304", "16777216", "67108864"})
    long chunkSize;

    @Param({"67108864", "1073741824"})
    long arrayBytes;

    private ChunkPool pool;

    @Setup(Level.Trial)
    public void setup() {
        pool = ChunkPool.builder().chunkSize(chunkSize).build();
        List<DoubleArray> single = new ArrayList<>();
        for (long b = 0; b < arrayBytes; b += chunkSize) {
            single.add(pool.doubles(chunkSize / Double.BYTES, Contents.UNINITIALIZED));
        }
        Collections.shuffle(single, new Random(42));
        single.forEach(DoubleArray::close);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.close();
    }

    @Benchmark
    public double uninitialized() {
        try (DoubleArray array = pool.doubles(arrayBytes / Double.BYTES, Contents.UNINITIALIZED)) {
            return array.get(array.length() - 1);
        }
    }

    @Benchmark
    public double zeroed() {
        try (DoubleArray array = pool.doubles(arrayBytes / Double.BYTES)) {
            return array.get(array.length() - 1);
        }
    }
}
