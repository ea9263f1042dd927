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

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A regular file open for mapping, with its identity and a lock other processes see: what a
 * {@code MappedArray} holds while it is open.
 *
 * <p>On Linux the file is first opened as a raw descriptor with {@code O_NONBLOCK}, so that a named pipe put
 * where a regular file was expected cannot block the open; the file that descriptor names is checked to be a
 * regular file before the channel opens the path, and the path must still name that file once the channel is
 * open (the channel opens the path, not {@code /proc/self/fd/N}, so that the JDK's file events name the file).
 * Only a path replaced within those microseconds (by a pipe: the channel's open would block; twice: the channel
 * would open another file) could slip between the checks. The lock is an open file description lock
 * ({@code F_OFD_SETLK}) on the raw descriptor: it belongs to this open file alone, so, unlike {@link FileLock}
 * (a POSIX record lock of the whole process), it is not lost when any other descriptor of the file in this
 * process closes (as {@code fallocate}'s does at every reservation), and two opens of one file in this process
 * conflict as two processes would. It conflicts with
 * other processes' {@code FileLock}s and {@code fcntl} locks too; like them it is advisory: a process that
 * takes no lock (NumPy) is not held off.
 *
 * <p>Elsewhere (other systems, or no {@code /proc}) the file is opened by its path (the caller checks first
 * that it is a regular file) and only an exclusive lock is taken, as a {@link FileLock} on the channel, which
 * the JDK's warnings about POSIX locks apply to.
 */
public final class LockedFile implements Closeable {
    /** What {@link #tryLock} found. */
    public enum Lock {
        /** This open file holds the lock now. */
        TAKEN,
        /** No lock is kept: the file system has none, or (elsewhere than Linux) readers do not lock. */
        NONE,
        /** Another open file (another process, or another open of it here) holds a shared lock: readers. */
        HELD_SHARED,
        /** Another open file holds an exclusive lock: a writer. */
        HELD_EXCLUSIVE,
        /** Another open file holds a lock, of a kind not known (released since, or not Linux). */
        HELD
    }

    private static final Path OWN_DESCRIPTORS = Path.of("/proc/self/fd");

    private final FileChannel channel;
    private final Object fileKey;
    private final int lockDescriptor;
    private final boolean writable;
    private boolean closed;

    private LockedFile(FileChannel channel, Object fileKey, int lockDescriptor, boolean writable) {
        this.channel = channel;
        this.fileKey = fileKey;
        this.lockDescriptor = lockDescriptor;
        this.writable = writable;
    }

    /** Whether files are opened without blocking and locked per open file (Linux with {@code /proc}). */
    public static boolean locksEachOpenFile() {
        return Libc.locksAvailable() && Files.isDirectory(OWN_DESCRIPTORS);
    }

    /**
     * Opens an existing file, or the file a symbolic link names, for reading (and writing). Linux: the first
     * open cannot block, and anything but a regular file is refused before the channel opens it.
     *
     * @throws NoSuchFileException if there is no such file
     * @throws AccessDeniedException if the file may not be opened so
     * @throws FileSystemException if it is not a regular file, or cannot be opened for another reason
     */
    public static LockedFile open(Path path, boolean write) throws IOException {
        if (!locksEachOpenFile()) {
            Set<StandardOpenOption> options = write ? Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : Set.of(StandardOpenOption.READ);
            return portable(path, FileChannel.open(path, options), write);
        }
        int descriptor = lockDescriptor(path, write);
        try {
            Object fileKey = regularFileKey(path, descriptor);
            FileChannel channel = write ? FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(path, StandardOpenOption.READ);
            try {
                return withChannel(path, channel, fileKey, descriptor, write);
            } catch (IOException | RuntimeException | Error e) {
                closeAfterFailure(channel, e);
                throw e;
            }
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(descriptor, e);
            throw e;
        }
    }

    /**
     * Creates a new file, readable and writable by its owner only, open for reading and writing. If this
     * throws, no file is left.
     *
     * @throws FileAlreadyExistsException if something exists at {@code path} (even a dangling link)
     * @throws IOException if it cannot be created
     */
    public static LockedFile createNew(Path path) throws IOException {
        FileAttribute<?>[] ownerOnly = path.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
        FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), ownerOnly);
        try {
            if (!locksEachOpenFile()) {
                return portable(path, channel, true);
            }
            int descriptor = lockDescriptor(path, true);
            try {
                return withChannel(path, channel, regularFileKey(path, descriptor), descriptor, true);
            } catch (IOException | RuntimeException | Error e) {
                closeAfterFailure(descriptor, e);
                throw e;
            }
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(channel, e);
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A raw descriptor of the file, opened without blocking whatever the path names (a pipe, a device). */
    private static int lockDescriptor(Path path, boolean write) throws IOException {
        int flags = (write ? Libc.O_RDWR : Libc.O_RDONLY) | Libc.O_NONBLOCK | Libc.O_NOCTTY | Libc.O_CLOEXEC;
        return opened(path, Libc.open(path.toAbsolutePath().toString(), flags, 0));
    }

    private static int opened(Path path, int result) throws IOException {
        if (result >= 0) {
            return result;
        }
        int errno = -result;
        String file = path.toString();
        throw switch (errno) {
            case Libc.ENOENT -> new NoSuchFileException(file);
            case Libc.EEXIST -> new FileAlreadyExistsException(file);
            case 1, 13 -> new AccessDeniedException(file); // EPERM, EACCES
            default -> new FileSystemException(file, null, Libc.errnoName(errno));
        };
    }

    /** The identity of the file {@code descriptor} names, which must be a regular file. */
    private static Object regularFileKey(Path path, int descriptor) throws IOException {
        Path self = OWN_DESCRIPTORS.resolve(Integer.toString(descriptor));
        BasicFileAttributes attributes = Files.readAttributes(self, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new FileSystemException(path.toString(), null, "not a regular file (replaced while it was being"
                    + " opened?): nothing was read from it");
        }
        return attributes.fileKey();
    }

    /** The file, once the path still names the file the lock's descriptor opened ({@code fileKey}). */
    private static LockedFile withChannel(Path path, FileChannel channel, Object fileKey, int descriptor,
            boolean write) throws IOException {
        Object now = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        if (fileKey == null || !fileKey.equals(now)) {
            throw new FileSystemException(path.toString(), null, "replaced while it was being opened: open it again");
        }
        return new LockedFile(channel, fileKey, descriptor, write);
    }

    private static void closeAfterFailure(int descriptor, Throwable failure) {
        try {
            Libc.close(descriptor);
        } catch (RuntimeException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    private static void closeAfterFailure(FileChannel channel, Throwable failure) {
        try {
            channel.close();
        } catch (IOException suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    private static LockedFile portable(Path path, FileChannel channel, boolean write) throws IOException {
        try {
            return new LockedFile(channel, Files.readAttributes(path, BasicFileAttributes.class).fileKey(), -1, write);
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(channel, e);
            throw e;
        }
    }

    /** The channel to read, write and map the file through. */
    public FileChannel channel() {
        return channel;
    }

    /**
     * The identity of the open file (device and inode on Unix), the same for every path that names it (hard
     * and symbolic links); null where the file system has none.
     */
    public Object fileKey() {
        return fileKey;
    }

    /**
     * Takes the lock without waiting: {@code exclusive} for a writer (the file must be open for writing),
     * shared for a reader. Held until {@link #close()}.
     *
     * @return {@link Lock#TAKEN}, {@link Lock#NONE} if no lock can be kept, or who holds a conflicting one
     * @throws IOException if locking fails for another reason
     */
    public synchronized Lock tryLock(boolean exclusive) throws IOException {
        if (exclusive && !writable) {
            throw new IllegalArgumentException("an exclusive lock needs a file open for writing");
        }
        if (lockDescriptor < 0) {
            return exclusive ? tryChannelLock() : Lock.NONE;
        }
        short type = exclusive ? Libc.F_WRLCK : Libc.F_RDLCK;
        int errno = Libc.lockWholeFile(lockDescriptor, type);
        if (errno == 0) {
            return Lock.TAKEN;
        }
        if (errno == Libc.EAGAIN || errno == 13) { // EACCES: some systems' word for the same
            int held = Libc.conflictingLock(lockDescriptor, type);
            return held == Libc.F_WRLCK ? Lock.HELD_EXCLUSIVE : held == Libc.F_RDLCK ? Lock.HELD_SHARED : Lock.HELD;
        }
        if (errno == Libc.ENOLCK || errno == 22 || errno == Libc.EOPNOTSUPP) { // no locks here; EINVAL: no OFD
            return Lock.NONE;
        }
        throw new IOException("cannot lock the file: fcntl(F_OFD_SETLK) failed: " + Libc.errnoName(errno));
    }

    private Lock tryChannelLock() throws IOException {
        try {
            FileLock lock = channel.tryLock();
            return lock != null ? Lock.TAKEN : Lock.HELD;
        } catch (OverlappingFileLockException heldHere) {
            return Lock.HELD;
        } catch (UnsupportedOperationException | IOException noLocks) {
            return Lock.NONE;
        }
    }

    /** Closes the channel and gives the lock up; a second call does nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            channel.close();
        } finally {
            if (lockDescriptor >= 0) {
                Libc.close(lockDescriptor);
            }
        }
    }
}
