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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Portable reservation: writes every byte of the range, zeros past the end of the file and the bytes already
 * there before it (a hole reads as zeros, and writing it takes the blocks), as MapDB does.
 */
final class WrittenSpace implements FileSpace {
    static final WrittenSpace INSTANCE = new WrittenSpace();
    private static final int BLOCK = 1 << 20;

    private WrittenSpace() {}

    @Override
    public void reserve(FileChannel channel, Path path, long offset, long length) throws IOException {
        FileSpace.checkRange(offset, length);
        int size = (int) Math.min(BLOCK, Math.max(length, 1));
        ByteBuffer data = ByteBuffer.allocate(size);
        ByteBuffer zeros = ByteBuffer.allocate(size);
        long end = offset + length;
        long existing = Math.min(end, Math.max(offset, channel.size()));
        try {
            for (long position = offset; position < end; ) {
                int n = (int) Math.min(size, end - position);
                ByteBuffer piece;
                if (position < existing) {
                    piece = data.clear().limit((int) Math.min(n, existing - position));
                    readFully(channel, piece, position);
                    piece.flip();
                } else {
                    piece = zeros.clear().limit(n);
                }
                while (piece.hasRemaining()) {
                    position += FileCalls.write(channel, piece, position);
                }
            }
        } catch (IOException e) {
            throw new IOException("cannot reserve " + length + " bytes at offset " + offset + " of " + path + ": "
                    + e.getMessage(), e);
        }
    }

    private static void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + buffer.position());
            if (n < 0) {
                // The file shrank meanwhile: what is missing becomes zeros.
                buffer.put(new byte[buffer.remaining()]);
            }
        }
    }

    @Override
    public String name() {
        return "write";
    }
}
