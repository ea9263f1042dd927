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
 * Segments over memory that another arena keeps mapped, so that ending the views and unmapping the memory are
 * two steps with a {@link Grace} between them; and segments that every access refuses.
 */
public final class Views {
    /** Segments of every size over no memory, in an arena closed at once. */
    private static final MemorySegment ENDED = endedSegment();

    private Views() {}

    /**
     * The memory of {@code mapped} as a segment of {@code views}: closing {@code views} ends it and unmaps
     * nothing; {@code mapped}'s own arena, never handed out, is closed after it. Read-only if {@code mapped} is.
     *
     * @throws SecurityException if the caller is not one of offheap's pools
     */
    @SuppressWarnings("restricted")
    public static MemorySegment over(MemorySegment mapped, Arena views) {
        Callers.check("Views.over");
        MemorySegment view = MemorySegment.ofAddress(mapped.address()).reinterpret(mapped.byteSize(), views, null);
        return mapped.isReadOnly() ? view.asReadOnly() : view;
    }

    /**
     * A segment of {@code byteSize} bytes whose arena is closed: every access checks its bounds, then throws
     * {@link IllegalStateException} ("Already closed"), before it reaches any memory.
     */
    public static MemorySegment ended(long byteSize) {
        return ENDED.asSlice(0, byteSize);
    }

    @SuppressWarnings("restricted")
    private static MemorySegment endedSegment() {
        Arena ended = Arena.ofShared();
        MemorySegment segment = MemorySegment.NULL.reinterpret(Long.MAX_VALUE, ended, null);
        Grace.endViews(ended);
        return segment;
    }
}
