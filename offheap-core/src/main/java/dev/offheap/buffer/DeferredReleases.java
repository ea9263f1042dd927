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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Last releases a pool completes by itself ({@link BufferPool#releaseWhenFree(BufferLease)}): leases whose
 * views an I/O operation or native call still held when their owner let go of them, for frameworks whose own
 * release cannot be repeated. Tried again on the pool's slow paths (a sampled acquire, stats, trim, close).
 */
final class DeferredReleases {
    private final Set<BufferLease> waiting = ConcurrentHashMap.newKeySet();

    /** Releases {@code lease} once, now if its views can end; true if that happened now. */
    boolean release(BufferLease lease) {
        try {
            lease.release();
            return true;
        } catch (MemoryInUseException held) {
            waiting.add(lease);
            return false;
        }
    }

    /** Tries every waiting release again. */
    void retry() {
        if (waiting.isEmpty()) {
            return;
        }
        for (BufferLease lease : waiting) {
            if (waiting.remove(lease)) { // removed first: one thread releases it
                release(lease);
            }
        }
    }

    /** Bytes of the leases still waiting. */
    long bytes() {
        long bytes = 0;
        for (BufferLease lease : waiting) {
            bytes += ((Lease) lease).leasedSize();
        }
        return bytes;
    }
}
