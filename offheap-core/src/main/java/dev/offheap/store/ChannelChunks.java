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

import dev.offheap.account.BudgetOwner;
import dev.offheap.os.Views;
import dev.offheap.os.FileCalls;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Portable spill chunks: pieces of one temporary file, mapped one by one through {@code FileChannel.map}.
 * Space is reserved by writing zeros before a chunk is first mapped (there is no portable
 * {@code fallocate}), so a full disk is an {@link IOException} here, not a fault later. Without hole
 * punching, {@code trim()} cannot give disk space back; the file goes when the pool closes.
 */
final class ChannelChunks extends ViewedChunks {
    private static final int ZERO_BLOCK = 1 << 20;

    private final FileChannel channel;
    private final Path path;

    private ChannelChunks(String pool, String name, long chunkSize, BudgetOwner account, FileChannel channel,
            Path path) {
        super(pool, name, chunkSize, account);
        this.channel = channel;
        this.path = path;
    }

    static ChannelChunks create(String pool, String name, long chunkSize, BudgetOwner account, Path directory,
            String prefix) throws IOException {
        Path path = directory.resolve(prefix + "-" + ProcessHandle.current().pid() + "-"
                + Long.toHexString(System.nanoTime()) + ".spill");
        Set<StandardOpenOption> options = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.DELETE_ON_CLOSE);
        FileAttribute<?>[] ownerOnly = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        FileChannel channel = FileChannel.open(path, options, ownerOnly);
        return new ChannelChunks(pool, name, chunkSize, account, channel, path);
    }

    @Override
    boolean clear(Chunk chunk) {
        return false; // no portable hole punching: the caller writes zeros
    }

    @Override
    void extendTo(long size) {
        // Writing the zeros in back() extends the file.
    }

    @Override
    void back(Chunk chunk) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_BLOCK, chunkSize));
        long end = chunk.offset + chunkSize;
        try {
            for (long position = chunk.offset; position < end; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), end - position));
                long at = position;
                position += Uninterruptible.call(() -> FileCalls.write(channel, zeros, at));
            }
        } catch (IOException e) {
            throw new IOException("cannot reserve " + chunkSize + " bytes in " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    boolean unback(Chunk chunk) {
        return false; // no portable way to punch a hole: trim() gives no disk space back
    }

    /** The piece mapped in {@code mappings}, seen through a segment of {@code views} over the same addresses. */
    @Override
    MemorySegment view(Chunk chunk, Arena views, Arena mappings) throws IOException {
        return Views.over(Uninterruptible.call(() -> FileCalls.map(channel, FileChannel.MapMode.READ_WRITE,
                chunk.offset, chunkSize, mappings)), views);
    }

    @Override
    void release(Chunk chunk) {
        // Closing the channel deletes the file.
    }

    @Override
    void forgetNew(Chunk chunk) {
        // abandonFrom cuts them all off at once.
    }

    /** Cuts the file at {@code offset}: the zeros written for new chunks, those written half way included. */
    @Override
    void abandonFrom(long offset) {
        try {
            Uninterruptible.call(() -> {
                FileCalls.truncate(channel, offset);
                return null;
            });
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot give back the space of " + path + " from " + offset, e);
        }
    }

    @Override
    void closeSource() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot close spill file " + path, e);
        }
    }
}
