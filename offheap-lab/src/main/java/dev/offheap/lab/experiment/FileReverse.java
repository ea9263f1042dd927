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

package dev.offheap.lab.experiment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Seed 000's reverse benchmark: read a whole file into one buffer, change it, write it to a second file.
 * The change is the seed's: the first byte takes the value of the last, so the timing is the I/O path.
 */
final class FileReverse {
    private final Path source;
    private final Path target;

    FileReverse(Path source, Path target) {
        this.source = source;
        this.target = target;
    }

    void through(ByteBuffer buffer) throws IOException {
        buffer.clear();
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
            while (buffer.hasRemaining() && in.read(buffer) >= 0) {
                // a read may return less than asked
            }
            buffer.flip();
            buffer.put(0, buffer.get(buffer.limit() - 1));
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    /** The floor: the kernel copies, no buffer of ours, no change. */
    void transferTo() throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
                FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE)) {
            long size = in.size();
            long done = 0;
            while (done < size) {
                done += in.transferTo(done, size - done, out);
            }
        }
    }
}
