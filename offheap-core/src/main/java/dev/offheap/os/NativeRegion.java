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
 * <p>Its segment belongs to a shared arena of its own, the views' arena. {@link #tryClose()} ends the views
 * (a handshake with every thread, so no thread is still inside an access) and only then gives the memory
 * back, after its {@link Grace}: a segment kept past close throws {@link IllegalStateException} instead of
 * touching freed memory, and the memory is never freed while an I/O operation or native call holds a view.
 */
public final class NativeRegion implements AutoCloseable {
    private final Arena views;
    private final MemorySegment segment;
    private final Runnable free;

    /** {@code free} gives the memory back once the views have ended; it runs once. */
    NativeRegion(Arena views, MemorySegment segment, Runnable free) {
        this.views = views;
        this.segment = segment;
        this.free = free;
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

    /**
     * Ends the views, then gives the memory back: at once as far as the process's memory is concerned, its
     * addresses after their grace.
     *
     * @return true if the memory went back; false, with nothing changed, if an I/O operation or a native call
     *         holds a view: try again once it has ended
     * @throws IllegalStateException if the region was already closed
     */
    public boolean tryClose() {
        if (!Grace.endViews(views)) {
            return false;
        }
        free.run();
        return true;
    }

    /**
     * {@link #tryClose()} for a region nobody else can hold (one never handed out).
     *
     * @throws IllegalStateException if the region was already closed, or a view is held after all
     */
    @Override
    public void close() {
        if (!tryClose()) {
            throw new IllegalStateException("a view of this region is held by an I/O operation or native call");
        }
    }
}
