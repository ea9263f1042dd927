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
import dev.offheap.store.DoubleArray;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * The store: a {@link DoubleArray} from a {@link ChunkPool} of its own with the default 4 MiB chunks, read
 * with {@link DoubleArray#get(long)}. {@code store-memory}: no memory limit, every chunk from memory (on Linux
 * anonymous blocks moved into the array's range with {@code mremap}). {@code store-spill}: memory limit 0 and a spill directory, so every chunk comes from the spill
 * file there (on Linux mapped from it; the file is unlinked at once, the directory is the caller's).
 */
final class StoreLayout extends DoubleStorage {
    private final ChunkPool pool;
    private final DoubleArray array;

    private StoreLayout(long length, ChunkPool pool) {
        super(length);
        this.pool = pool;
        try {
            this.array = pool.doubles(length);
        } catch (RuntimeException | Error e) {
            pool.close();
            throw e;
        }
        System.out.println(pool + ": " + array);
    }

    static StoreLayout memory(long length) {
        return new StoreLayout(length, ChunkPool.builder().name("bench-memory").build());
    }

    static StoreLayout spill(long length, Path directory) {
        return new StoreLayout(length,
                ChunkPool.builder().name("bench-spill").memoryLimit(0).spillDirectory(directory).build());
    }

    /**
     * Diagnostic, run only on request ({@code -p layout=store-memory-segment}): the memory of
     * {@code store-memory}, read through the array's contiguous segment ({@link DoubleArray#contiguousSegment})
     * with {@code getAtIndex} like {@code flat-segment}, without {@link DoubleArray#get}'s own checks. Tells
     * the cost of the store's API from the behaviour of its memory (anonymous blocks advised for huge pages and
     * moved into one range, instead of malloc's).
     */
    static DoubleStorage memorySegment(long length) {
        StoreLayout store = memory(length);
        MemorySegment segment = store.array.contiguousSegment().orElseThrow(
                () -> new IllegalStateException("the store's arrays are not contiguous on this platform"));
        return new DoubleStorage(length) {
            @Override
            double get(long i) {
                return segment.getAtIndex(DOUBLE, i);
            }

            @Override
            void set(long i, double value) {
                segment.setAtIndex(DOUBLE, i, value);
            }

            @Override
            public void close() {
                store.close();
            }
        };
    }

    @Override
    double get(long i) {
        return array.get(i);
    }

    @Override
    void set(long i, double value) {
        array.set(i, value);
    }

    /**
     * The sequential sum through the store's kernel route, as a user writes it: a plain loop over each
     * segment {@code forEachChunk} hands over (on Linux one segment, the whole array), adding in index order
     * like {@link StoreBenchmark#sequentialSum(DoubleStorage)}, so the sums are equal to the bit.
     */
    double kernelSum() {
        double[] sum = {0};
        array.forEachChunk((MemorySegment segment, long firstIndex) -> {
            double s = sum[0];
            long n = segment.byteSize() / Double.BYTES;
            for (long i = 0; i < n; i++) {
                s += segment.getAtIndex(DOUBLE, i);
            }
            sum[0] = s;
        });
        return sum[0];
    }

    @Override
    public void close() {
        array.close();
        pool.close();
    }
}
