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

import dev.offheap.os.Grace;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The views of one lease in a shared arena of their own: every lease of a checked pool, and the leases a pool
 * samples for use-after-release detection. Release ends the views first (a handshake with every thread, so
 * no access is still in flight), and only then, after its {@link Grace}, does the slot go back: a view kept
 * past release throws instead of touching memory lent to someone else. While an I/O operation or native call
 * holds a view the JDK refuses to end them, and the slot stays with the lease. A sampled lease also keeps
 * where it was acquired and released, for the message of any later use of its handle.
 */
final class OwnArena {
    private final Arena arena;
    final Slot slot;
    final MemorySegment segment;
    /** Guarded by {@code this}. */
    private boolean ended;
    final CallSite acquiredAt;
    volatile CallSite releasedAt;

    @SuppressWarnings("restricted")
    OwnArena(Slot slot, int size, boolean recordSites) {
        this.arena = Arena.ofShared();
        this.slot = slot;
        this.segment = MemorySegment.ofAddress(slot.address()).reinterpret(size, arena, null);
        this.acquiredAt = recordSites ? CallSite.acquired() : null;
    }

    /** The lease is being released: remembers where, if sampled. {@link #tryEnd()} ends the views. */
    void released() {
        if (acquiredAt != null) {
            releasedAt = CallSite.released();
        }
    }

    /**
     * Ends every view; at release, when the lease is found leaked, or when the pool closes with the lease
     * outstanding. True once they have ended (by this call or an earlier one); false, with nothing changed,
     * while an I/O operation or native call holds one.
     */
    synchronized boolean tryEnd() {
        if (!ended) {
            ended = Grace.endViews(arena);
        }
        return ended;
    }

    synchronized boolean isEnded() {
        return ended;
    }
}
