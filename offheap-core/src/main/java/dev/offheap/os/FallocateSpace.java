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
 * Linux: {@code fallocate(fd, 0, offset, length)} on a second descriptor of the same file (a
 * {@code FileChannel} does not show its own). File systems without it ({@code EOPNOTSUPP}) fall back to
 * {@link WrittenSpace}.
 */
final class FallocateSpace implements FileSpace {
    static final FallocateSpace INSTANCE = new FallocateSpace();

    private FallocateSpace() {}

    static boolean isSupported() {
        return Libc.isLinux() && Libc.filesAvailable();
    }

    @Override
    public void reserve(FileChannel channel, Path path, long offset, long length) throws IOException {
        FileSpace.checkRange(offset, length);
        if (length == 0) {
            return;
        }
        int fd = Libc.openReadWrite(path.toAbsolutePath().toString());
        int errno;
        try {
            errno = Libc.fallocate(fd, 0, offset, length);
        } finally {
            Libc.close(fd);
        }
        if (errno == Libc.EOPNOTSUPP) {
            WrittenSpace.INSTANCE.reserve(channel, path, offset, length);
        } else if (errno != 0) {
            throw new IOException("cannot reserve " + length + " bytes at offset " + offset + " of " + path + ": "
                    + Libc.errnoName(errno));
        }
    }

    @Override
    public String name() {
        return "fallocate";
    }
}
