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

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The JDK's file calls that stand for {@code mmap}, {@code fallocate} and {@code ftruncate} where offheap maps
 * and sizes files through a {@link FileChannel} (the portable spill file, mapped arrays' views, writing space
 * in): each is the channel's own call, unless the fault seam of the tests ({@link Faults}) fails it first with
 * the exception the JDK throws for that failure. They hand out nothing the channel does not.
 */
public final class FileCalls {
    private FileCalls() {}

    /**
     * {@code channel.map(mode, offset, size, arena)}. A failure is the JDK's: an {@link IOException} "Map
     * failed" caused by an {@link OutOfMemoryError} when the kernel is out of memory or mappings.
     */
    public static MemorySegment map(FileChannel channel, FileChannel.MapMode mode, long offset, long size, Arena arena)
            throws IOException {
        int errno = Faults.errnoFor(Faults.Call.MMAP);
        if (errno == 12) {
            throw new IOException("Map failed", new OutOfMemoryError("Map failed"));
        } else if (errno != 0) {
            throw new IOException(Faults.strerror(errno));
        }
        return channel.map(mode, offset, size, arena);
    }

    /** {@code channel.write(source, position)}: writing zeros or data to reserve a file's space. */
    public static int write(FileChannel channel, ByteBuffer source, long position) throws IOException {
        Faults.throwIfDue(Faults.Call.FALLOCATE);
        return channel.write(source, position);
    }

    /** {@code channel.truncate(size)}: giving a file's space back from {@code size} on. */
    public static void truncate(FileChannel channel, long size) throws IOException {
        Faults.throwIfDue(Faults.Call.FTRUNCATE);
        channel.truncate(size);
    }
}
