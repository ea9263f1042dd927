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

package dev.offheap.accuracy.truth;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads another process's memory through {@code /proc/PID/mem} (needs ptrace access: the same user, or root;
 * with Yama's ptrace_scope 1 only root). Callers read only pages pagemap reports resident: reading an
 * untouched anonymous page would map the zero page into the target and change what the next pagemap shows.
 */
final class ProcMem implements AutoCloseable {
    private final FileChannel mem;

    ProcMem(long pid) throws IOException {
        mem = FileChannel.open(Path.of("/proc", Long.toString(pid), "mem"), StandardOpenOption.READ);
    }

    /** {@code length} bytes at the address, little-endian; fewer if the read stops early. */
    ByteBuffer read(long address, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (buffer.hasRemaining()) {
            int n = mem.read(buffer, address + buffer.position());
            if (n <= 0) {
                break;
            }
        }
        return buffer.flip();
    }

    long word(long address) throws IOException {
        ByteBuffer b = read(address, 8);
        return b.remaining() == 8 ? b.getLong() : 0;
    }

    @Override
    public void close() throws IOException {
        mem.close();
    }
}
