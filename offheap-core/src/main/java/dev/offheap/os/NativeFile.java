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
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Linux file descriptor that chunks are mapped from: an unlinked spill file on disk. Linux only
 * ({@link #isSupported()}); the portable path maps files through {@code FileChannel} instead.
 *
 * <p>Space is reserved with {@code fallocate} before anyone maps it, so a full disk is an
 * {@link IOException} at allocation instead of a SIGBUS on first touch. {@link #punchHole} gives blocks back
 * to the file system while the file keeps its size; the range reads as zeros.
 */
public final class NativeFile implements AutoCloseable {
    private static final int OWNER_READ_WRITE = 0600;

    private final int fd;
    private final String description;
    private long size;
    private boolean closed;

    private NativeFile(int fd, String description) {
        this.fd = fd;
        this.description = description;
    }

    /** Whether fallocate, fixed mappings and mremap are all available (Linux x86_64 and aarch64). */
    public static boolean isSupported() {
        return Libc.isLinux() && Libc.filesAvailable();
    }

    /**
     * A new file in {@code directory}, readable and writable by its owner only, unlinked at once so that it
     * disappears with the process however the process ends. Its space shows in {@code df}, not {@code ls}.
     */
    public static NativeFile spill(Path directory, String prefix) throws IOException {
        Callers.check("NativeFile.spill");
        for (int attempt = 0; ; attempt++) {
            Path path = directory.resolve(prefix + "-" + ProcessHandle.current().pid() + "-"
                    + Long.toHexString(System.nanoTime()) + ".spill");
            int fd;
            try {
                fd = Libc.createExclusive(path.toString(), OWNER_READ_WRITE);
            } catch (IOException e) {
                if (attempt < 3 && Files.exists(path)) {
                    continue;
                }
                throw e;
            }
            try {
                Files.delete(path);
            } catch (IOException e) {
                Libc.close(fd);
                throw e;
            }
            return new NativeFile(fd, path + " (unlinked)");
        }
    }

    int fd() {
        return fd;
    }

    public long size() {
        return size;
    }

    /** Grows the file to {@code newSize} bytes as a hole: no memory or disk is used until reserved or touched. */
    public synchronized void grow(long newSize) {
        checkOpen();
        if (newSize > size) {
            Libc.ftruncate(fd, newSize, description);
            size = newSize;
        }
    }

    /**
     * Cuts the file to {@code newSize} bytes, giving the space after it back: nothing may be mapped there.
     * Nothing happens if the file is not larger.
     */
    public synchronized void shrink(long newSize) {
        checkOpen();
        if (newSize < size) {
            Libc.ftruncate(fd, newSize, description);
            size = newSize;
        }
    }

    /**
     * Makes sure {@code [offset, offset + length)} has real space behind it, allocating the blocks now; a
     * full disk or quota gives {@link IOException}.
     */
    public void reserve(long offset, long length) throws IOException {
        checkOpen();
        int errno = Libc.fallocate(fd, Libc.FALLOC_FL_KEEP_SIZE, offset, length);
        if (errno != 0) {
            throw new IOException("cannot reserve " + length + " bytes at offset " + offset + " of " + description
                    + ": " + Libc.errnoName(errno));
        }
    }

    /** Gives the space of {@code [offset, offset + length)} back; the range reads as zeros afterwards. */
    public void punchHole(long offset, long length) {
        checkOpen();
        int errno = Libc.fallocate(fd, Libc.FALLOC_FL_PUNCH_HOLE | Libc.FALLOC_FL_KEEP_SIZE, offset, length);
        if (errno != 0) {
            throw new IllegalStateException("cannot punch a hole of " + length + " bytes at offset " + offset
                    + " in " + description + ": " + Libc.errnoName(errno));
        }
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Libc.close(fd);
        }
    }

    @Override
    public String toString() {
        return description;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(description + " is closed");
        }
    }
}
