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

package dev.offheap.store;

import dev.offheap.metrics.jmx.Jmx;
import dev.offheap.account.MemoryBudget;
import java.nio.file.Path;

/**
 * What a {@link ChunkPool.Builder} was told, once {@link #fit()} checked that it fits together and fitted the
 * chunk size to the limits when it was not set: every limit must hold at least one chunk, and (contiguous
 * layout) a memory limit's chunks must fit in the mappings a pool may hold. The pool is built from the
 * fitted settings; the builder itself is left as it was.
 *
 * @param contiguous whether arrays are laid out contiguously ({@link ArrayLayout#contiguousFor}), decided once
 * @param mappingLimit the mappings the pool may hold (contiguous), within {@code jvmMappings}: the JVM's
 *                     ({@link MappingBudget#JVM}) but in tests
 */
record ChunkPoolSettings(String name, long chunkSize, boolean chunkSizeSet, MemoryBudget budget, long memoryLimit,
        Path spillDirectory, long spillLimit, MemoryBudget spillParent, boolean contiguous, long mappingLimit,
        MappingBudget jvmMappings, Jmx.Mode jmx) {

    static final long MIN_CHUNK_SIZE = 64 << 10;
    static final long MAX_CHUNK_SIZE = 1L << 30;

    /** Checks the settings; returns them with the chunk size the pool gets. */
    ChunkPoolSettings fit() {
        if (spillDirectory == null && spillLimit != MemoryBudget.UNLIMITED) {
            throw new IllegalArgumentException("spillLimit(" + spillLimit + ") limits a spill file but there is"
                    + " none: set spillDirectory(...) too, or drop spillLimit");
        }
        if (spillDirectory == null && memoryLimit == 0) {
            throw new IllegalArgumentException("memoryLimit(0) leaves no memory for arrays and there is no spill"
                    + " file: set spillDirectory(...), or a memoryLimit of at least one chunk");
        }
        if (spillDirectory != null && spillLimit == 0) {
            throw new IllegalArgumentException("spillLimit(0) leaves no room in the spill file: drop"
                    + " spillDirectory(" + spillDirectory + "), or raise spillLimit");
        }
        long fitted = chunkSize;
        if (memoryLimit > 0) {
            fitted = fitChunk(fitted, memoryLimit, "memoryLimit(" + memoryLimit + ")");
        }
        if (spillDirectory != null && spillLimit > 0) {
            fitted = fitChunk(fitted, spillLimit, "spillLimit(" + spillLimit + ")");
        }
        if (budget != null) {
            MemoryBudget tightest = ChunkSource.tightestLevel(budget);
            if (tightest.limit() > 0) {
                fitted = fitChunk(fitted, tightest.limit(),
                        "budget '" + tightest.path() + "' (a limit of " + tightest.limit() + ")");
            }
        }
        if (contiguous && memoryLimit != MemoryBudget.UNLIMITED) {
            fitted = fitMappings(fitted);
        }
        return new ChunkPoolSettings(name, fitted, chunkSizeSet, budget, memoryLimit, spillDirectory, spillLimit,
                spillParent, contiguous, mappingLimit, jvmMappings, jmx);
    }

    /** The budget memory chunks are charged to: the given one, a child of it with the memory limit, or a root. */
    MemoryBudget memoryBudget() {
        if (budget == null) {
            return MemoryBudget.root(name, memoryLimit);
        }
        return memoryLimit == MemoryBudget.UNLIMITED ? budget : budget.child(name, memoryLimit);
    }

    /** Whether the pool makes its memory budget (and so closes it): unless a budget was given and no limit. */
    boolean ownsMemoryBudget() {
        return budget == null || memoryLimit != MemoryBudget.UNLIMITED;
    }

    /**
     * The budget spill chunks are charged to: a root of the pool's own named {@code <name>-spill} (disk is no
     * memory), or the given spill budget, or a child of it with the spill limit.
     */
    MemoryBudget spillBudget() {
        if (spillParent == null) {
            return MemoryBudget.root(name + "-spill", spillLimit);
        }
        return spillLimit == MemoryBudget.UNLIMITED ? spillParent : spillParent.child(name + "-spill", spillLimit);
    }

    /** Whether the pool makes its spill budget (and so closes it): unless one was given and no limit. */
    boolean ownsSpillBudget() {
        return spillParent == null || spillLimit != MemoryBudget.UNLIMITED;
    }

    /** A limit below one chunk: a smaller chunk if the size is free, else what to set. */
    private long fitChunk(long chunkSize, long limit, String what) {
        if (limit >= chunkSize) {
            return chunkSize;
        }
        long fitting = Long.highestOneBit(limit);
        if (fitting < MIN_CHUNK_SIZE) {
            throw new IllegalArgumentException(what + " is smaller than the smallest chunk (" + MIN_CHUNK_SIZE
                    + " bytes): raise it to at least " + MIN_CHUNK_SIZE);
        }
        if (chunkSizeSet) {
            throw new IllegalArgumentException(what + " is smaller than one chunk (chunkSize(" + chunkSize
                    + ")): set chunkSize(" + fitting + ") or less, or raise the limit");
        }
        return fitting;
    }

    /** Memory chunks are one mapping each: a larger chunk if the size is free, else what to set. */
    private long fitMappings(long chunkSize) {
        long limit = memoryLimit;
        long mappings = Math.max(1, mappingLimit);
        if (limit / chunkSize <= mappings) {
            return chunkSize;
        }
        long fitting = chunkSize;
        while (limit / fitting > mappings && fitting < MAX_CHUNK_SIZE) {
            fitting <<= 1;
        }
        if (chunkSizeSet || limit / fitting > mappings) {
            throw new IllegalArgumentException("memoryLimit(" + limit + ") in chunks of " + chunkSize
                    + " bytes needs " + limit / chunkSize + " memory mappings but a pool may hold "
                    + mappings + " (half of vm.max_map_count): set chunkSize(" + fitting + ") or more, or raise"
                    + " vm.max_map_count");
        }
        return fitting;
    }
}
