package dev.offheap.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Linux file descriptor that chunks of memory are mapped from: an anonymous in-memory file
 * ({@code memfd_create}) or an unlinked spill file on disk. Linux only ({@link #isSupported()}); the
 * portable path maps files through {@code FileChannel} instead.
 *
 * <p>Space is reserved with {@code fallocate} before anyone maps it, so a full disk is an
 * {@link IOException} at allocation instead of a SIGBUS on first touch. {@link #punchHole} gives pages back
 * to the kernel (memory) or the file system (disk) while the file keeps its size; the range reads as zeros.
 */
public final class NativeFile implements AutoCloseable {
    private static final int OWNER_READ_WRITE = 0600;

    private final int fd;
    private final String description;
    private final boolean inMemory;
    private long size;
    private boolean closed;

    private NativeFile(int fd, String description, boolean inMemory) {
        this.fd = fd;
        this.description = description;
        this.inMemory = inMemory;
    }

    /** Whether memfd, fallocate and fixed mappings are all available (Linux x86_64 and aarch64). */
    public static boolean isSupported() {
        return Libc.isLinux() && Libc.filesAvailable();
    }

    /** An anonymous file in memory, sized 0. Its pages count as shared memory (Shmem in /proc/meminfo). */
    public static NativeFile inMemory(String name) {
        return new NativeFile(Libc.memfdCreate(name), "memfd:" + name, true);
    }

    /**
     * A new file in {@code directory}, readable and writable by its owner only, unlinked at once so that it
     * disappears with the process however the process ends. Its space shows in {@code df}, not {@code ls}.
     */
    public static NativeFile spill(Path directory, String prefix) throws IOException {
        Files.createDirectories(directory);
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
            return new NativeFile(fd, path + " (unlinked)", false);
        }
    }

    int fd() {
        return fd;
    }

    public boolean inMemory() {
        return inMemory;
    }

    public long size() {
        return size;
    }

    /** Grows the file to {@code newSize} bytes as a hole: no memory or disk is used until reserved or touched. */
    public synchronized void grow(long newSize) {
        checkOpen();
        if (newSize > size) {
            Libc.ftruncate(fd, newSize);
            size = newSize;
        }
    }

    /**
     * Makes sure {@code [offset, offset + length)} has real space behind it. For a disk file this allocates
     * the blocks now; a full disk or quota gives {@link IOException}. For a memory file it is skipped: pages
     * come on first touch and the caller's memory budget is the limit.
     */
    public void reserve(long offset, long length) throws IOException {
        checkOpen();
        if (inMemory) {
            return;
        }
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
