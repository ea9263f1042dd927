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

import dev.offheap.os.NativeRegion;
import java.lang.foreign.MemorySegment;

/**
 * One chunk of a {@link ChunkSource}: a fixed-size piece of its file (at {@code offset}), a movable block
 * ({@code address}, Linux memory) or, on the portable memory path, a block of its own ({@code region}). Its
 * state changes only through its own methods, called by its source (under the source's lock while the chunk
 * is free) or by the layout placing it in an array.
 */
final class Chunk {
    final ChunkSource source;
    final long offset;
    /** Where a movable chunk's block is while free (Linux memory); 0 while an array holds it or unbacked. */
    private long address;
    /** The portable memory block, while backed; null otherwise and for file chunks. */
    private NativeRegion region;
    /** Whether the chunk is known to read as zeros (new, or its space was given back since). */
    private boolean zero = true;

    Chunk(ChunkSource source, long offset) {
        this.source = source;
        this.offset = offset;
    }

    long address() {
        return address;
    }

    NativeRegion region() {
        return region;
    }

    boolean readsAsZero() {
        return zero;
    }

    /** New space behind it, a movable block at {@code address}: reads as zeros. */
    void backedAt(long address) {
        this.address = address;
        this.zero = true;
    }

    /** New space behind it, a portable block of its own: reads as zeros. */
    void backedBy(NativeRegion region) {
        this.region = region;
        this.zero = true;
    }

    /** Its space was given back (a block freed, a hole punched): it reads as zeros once backed again. */
    void unbacked() {
        this.address = 0;
        this.region = null;
        this.zero = true;
    }

    /** Its space was cleared in place without writing (pages given back, a hole punched and reserved again). */
    void cleared() {
        this.zero = true;
    }

    /** An array held it: it may hold data now. */
    void used() {
        this.zero = false;
    }

    /** Moved with its pages into an array's range: no address of its own while the array holds it. */
    void movedAway() {
        this.address = 0;
    }

    /** Left where the array had it when the array ended: that is its address while free. */
    void leftAt(long address) {
        this.address = address;
    }

    /** Writes zeros through {@code view} (the chunk as an array sees it) unless it is known to read as zeros. */
    void clearThrough(MemorySegment view) {
        if (!zero) {
            view.fill((byte) 0);
            zero = true;
        }
    }
}
