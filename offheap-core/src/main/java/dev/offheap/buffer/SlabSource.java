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

package dev.offheap.buffer;

import dev.offheap.account.BudgetOwner;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.NativeRegion;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where a buffer pool's memory comes from: blocks of native memory from the OS (the slabs of its size
 * classes, the regions of dedicated leases), each charged to the pool's budget before it is taken and
 * released after it is given back, and counted in the pool's bytes from the OS. {@link BufferPool} builds one
 * and hands it to every {@link SizeClassPool} and to {@link DedicatedRegions}; they take memory from it only
 * when a class grows or a dedicated lease is made, never per acquire.
 *
 * <p>Its closed flag is set by the pool's close before any class frees its slabs, so a class growing
 * meanwhile gives its new slab straight back and reports the closed pool.
 */
final class SlabSource {
    private final String pool;
    private final BudgetOwner account;
    private final NativeMemory memory;
    private final AtomicLong osBytes = new AtomicLong();
    private final AtomicLong peakOsBytes = new AtomicLong();
    private final SharedLines.Line osBytesLine;
    private volatile boolean closed;

    SlabSource(String pool, BudgetOwner account, NativeMemory memory) {
        this.pool = pool;
        this.account = account;
        this.memory = memory;
        this.osBytesLine = SharedLines.line(() -> "bytes from the OS of pool " + pool);
    }

    /**
     * Takes memory from the OS, charged to the budget; a refusal first runs the budget's reclaimers (the
     * pool's own trim among them) and retries once, then throws the budget's
     * {@link dev.offheap.account.BudgetExceededException}, which the pool's acquire names its request in.
     */
    NativeRegion take(long bytes) {
        try {
            account.charge(bytes);
        } catch (IllegalStateException budgetClosed) {
            // the pool's close closes its own budget last: a charge that raced it reports the closed pool
            checkOpen();
            throw budgetClosed;
        }
        try {
            NativeRegion region = memory.allocate(bytes);
            if (SharedLines.COUNTING) {
                osBytesLine.add();
            }
            peakOsBytes.accumulateAndGet(osBytes.addAndGet(bytes), Math::max);
            return region;
        } catch (RuntimeException | Error e) {
            account.release(bytes);
            throw e;
        }
    }

    /**
     * Gives a block back to the OS, then its charge back to the budget; false, with nothing changed, while an
     * I/O operation or native call holds a view of it (its memory stays mapped and charged).
     */
    boolean give(NativeRegion region) {
        long bytes = region.byteSize();
        if (!region.tryClose()) {
            return false;
        }
        osBytes.addAndGet(-bytes);
        account.release(bytes);
        return true;
    }

    /** The pool's name, for events and messages. */
    String poolName() {
        return pool;
    }

    /** The name of the memory the blocks come from, for statistics. */
    String memoryName() {
        return memory.name();
    }

    long bytes() {
        return osBytes.get();
    }

    long peakBytes() {
        return peakOsBytes.get();
    }

    boolean isClosed() {
        return closed;
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("buffer pool '" + pool + "' is closed");
        }
    }

    /** No more memory from now on; blocks taken meanwhile are given back by their takers. */
    void close() {
        closed = true;
    }

    /** Stops listing the pool's account in its budget's reports once nothing is charged through it. */
    void closeAccount() {
        account.close();
    }
}
