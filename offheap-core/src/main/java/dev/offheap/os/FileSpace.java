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
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Puts disk blocks behind a range of a file before anyone maps it, so that a full disk or quota is an
 * {@link IOException} now, not a SIGBUS when a mapped page is first written (a hole in a file costs no disk
 * until then). Every byte the range already holds stays as it is; where the range goes past the end of the
 * file, the file grows and the new bytes read as zeros.
 *
 * <p>{@link #system()} asks the file system with {@code fallocate} on Linux, which takes no time whatever the
 * size; {@link #portable()} writes the range (zeros past the end, the bytes already there before it), which
 * works everywhere and costs one write of the range. Nobody may write the range while it is reserved.
 */
public sealed interface FileSpace permits FallocateSpace, WrittenSpace {

    /** {@code fallocate} on Linux x86_64 and aarch64, else {@link #portable()}. */
    static FileSpace system() {
        return FallocateSpace.isSupported() ? FallocateSpace.INSTANCE : WrittenSpace.INSTANCE;
    }

    /** Writing the range through the channel: every platform, and file systems without {@code fallocate}. */
    static FileSpace portable() {
        return WrittenSpace.INSTANCE;
    }

    /**
     * Reserves {@code [offset, offset + length)} of the file {@code path}, open for writing as {@code channel}.
     *
     * @throws IOException naming the file and the bytes, if the space cannot be had (a full disk, a quota)
     */
    void reserve(FileChannel channel, Path path, long offset, long length) throws IOException;

    /** {@code "fallocate"} or {@code "write"}, for messages and tests. */
    String name();

    static void checkRange(long offset, long length) {
        if (offset < 0 || length < 0 || offset > Long.MAX_VALUE - length) {
            throw new IllegalArgumentException("bad file range: " + length + " bytes at offset " + offset);
        }
    }
}
