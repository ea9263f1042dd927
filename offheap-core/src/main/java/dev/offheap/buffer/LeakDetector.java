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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.metrics.jfr.JfrEvents;
import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * Finds leases that became unreachable without being released. Only tracked leases (a sample, or all) are
 * watched; the queue is polled on the pool's slow paths (a tracked acquire, a new slab, stats, trim,
 * close), so no thread of its own is needed. A leaked lease whose views an I/O operation still holds keeps
 * its memory until that ends: each poll tries its cure again.
 */
final class LeakDetector {
    private static final System.Logger LOG = System.getLogger("dev.offheap.buffer.leak");

    private final String poolName;
    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private final Set<Record> watched = ConcurrentHashMap.newKeySet();
    /** Leaked leases whose cure found a view held by an I/O operation: tried again at each poll. */
    private final Set<Record> held = ConcurrentHashMap.newKeySet();
    private final LongAdder reported = new LongAdder();

    LeakDetector(String poolName) {
        this.poolName = poolName;
    }

    /**
     * Watches {@code referent}, the holder of a lease of {@code size} bytes (its handle, or for a token lease
     * the framework's object that holds the token); if it is lost unreleased, {@code cure} gives the memory
     * back (it must not reach the referent), or says false, having changed nothing, while an I/O operation
     * holds a view of it.
     */
    Record watch(Object referent, int size, BooleanSupplier cure) {
        Record record = new Record(referent, size, cure, queue, CallSite.acquired());
        watched.add(record);
        return record;
    }

    /** Reports and reclaims every lease found unreachable since the last poll; retries those held. */
    void poll() {
        for (Record record : held) {
            if (held.remove(record) && !cured(record)) { // removed first: one thread cures it
                held.add(record);
            }
        }
        Reference<?> ref;
        while ((ref = queue.poll()) != null) {
            Record record = (Record) ref;
            if (watched.remove(record)) {
                reported.increment();
                boolean cured = cured(record);
                if (!cured) {
                    held.add(record);
                }
                LOG.log(System.Logger.Level.WARNING, "LEAK: a buffer of " + record.size
                        + " bytes from pool '" + poolName + "' became unreachable without being released;"
                        + (cured ? " its memory went back to the pool." : " an I/O operation or native call still"
                        + " uses a view of it: its memory goes back to the pool once that has ended.")
                        + " It was acquired here:", record.acquiredAt);
                JfrEvents.leakReported(poolName, record.size, record.acquiredAt);
            }
        }
    }

    private static boolean cured(Record record) {
        try {
            return record.cure.getAsBoolean();
        } catch (MemoryInUseException stillHeld) {
            return false;
        }
    }

    /** Bytes of leaked leases whose memory an I/O operation still holds. */
    long heldBytes() {
        long bytes = 0;
        for (Record record : held) {
            bytes += record.size;
        }
        return bytes;
    }

    long reported() {
        return reported.sum();
    }

    int watchedCount() {
        return watched.size();
    }

    final class Record extends PhantomReference<Object> {
        private final int size;
        private final BooleanSupplier cure;
        private final CallSite acquiredAt;

        private Record(Object referent, int size, BooleanSupplier cure, ReferenceQueue<Object> queue, CallSite at) {
            super(referent, queue);
            this.size = size;
            this.cure = cure;
            this.acquiredAt = at;
        }

        /** The lease was released properly: stop watching. */
        void disarm() {
            watched.remove(this);
            clear();
        }
    }

}
