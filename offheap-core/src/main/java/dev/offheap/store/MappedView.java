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

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One view of a {@link MappedArray}'s file, as its memory knows it: which file, where the view's data ends in
 * it, the bytes it charged, the lock its arenas are closed under ({@link ArrayMemory.FileView#endLock()}) and
 * the mapping its segment is made over (in an arena of its own, never handed out: what {@code force} forces).
 * Explains an access that faulted (the file was truncated), a closed view and a write to a read-only one.
 */
record MappedView(Path path, FileChannel channel, long end, long charge, Object endLock, MemorySegment mapping)
        implements ArrayMemory.FileView {

    @Override
    public RuntimeException explainFault(InternalError fault, long index) {
        long size;
        try {
            size = Uninterruptible.call(channel::size);
        } catch (IOException | RuntimeException unknown) { // closed meanwhile: nothing to say
            return null;
        }
        return size < end ? new ArrayFileTruncatedException(path, size, end, index, fault) : null;
    }

    @Override
    public IllegalArgumentException readOnly(String operation, IllegalArgumentException cause) {
        return new IllegalArgumentException("cannot " + operation + " " + path + ": its views are read-only, the"
                + " file was opened READ_ONLY (MappedArray.Mode.READ_ONLY); open it READ_WRITE to write", cause);
    }

    @Override
    public IllegalStateException closed(IllegalStateException cause) {
        return new IllegalStateException("the view of " + path + " is closed (released, or its MappedArray was"
                + " closed)", cause);
    }
}
