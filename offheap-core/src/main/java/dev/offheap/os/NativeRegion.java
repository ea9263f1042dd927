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

package dev.offheap.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One block of native memory taken from the operating system, page aligned, zero on first touch.
 *
 * <p>The segment belongs to a shared arena of its own. {@link #close()} closes that arena (a handshake
 * with every thread, so no thread is still inside an access) and only then gives the memory back, so a
 * segment kept past close throws {@link IllegalStateException} instead of touching freed memory.
 */
public final class NativeRegion implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment segment;

    NativeRegion(Arena arena, MemorySegment segment) {
        this.arena = arena;
        this.segment = segment;
    }

    public MemorySegment segment() {
        return segment;
    }

    /**
     * The same memory as a segment of {@code arena}: it ends when that arena closes (or throws once the
     * arena is closed), while the region lives on. The region must outlive the arena.
     */
    @SuppressWarnings("restricted")
    public MemorySegment viewIn(Arena arena) {
        return MemorySegment.ofAddress(segment.address()).reinterpret(segment.byteSize(), arena, null);
    }

    public long byteSize() {
        return segment.byteSize();
    }

    /** Frees the memory. A second close throws {@link IllegalStateException}, like {@link Arena#close()}. */
    @Override
    public void close() {
        arena.close();
    }
}
