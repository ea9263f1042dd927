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

package dev.offheap.cli.inspect;

import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The JVM of issue 12's sparse case: a store array of 3e9 doubles (22.4 GiB of addresses) with only its
 * first {@link #TOUCHED_BYTES} written, and {@link #ARENA_BYTES} of {@code Arena.ofShared()} memory (malloc'd)
 * written in full. Prints {@code READY} and sleeps until killed.
 */
public final class SparseTarget {
    static final long ELEMENTS = 3_000_000_000L;
    static final long TOUCHED_BYTES = 128L << 20;
    static final long ARENA_BYTES = 192L << 20;

    private SparseTarget() {}

    public static void main(String[] args) throws InterruptedException {
        ChunkPool pool = ChunkPool.builder().name("sparse").build();
        DoubleArray array = pool.doubles(ELEMENTS);
        for (long i = 0; i < TOUCHED_BYTES / Double.BYTES; i += 512) {
            array.set(i, 1.0);
        }
        MemorySegment arena = Arena.ofShared().allocate(ARENA_BYTES);
        arena.fill((byte) 1);
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
