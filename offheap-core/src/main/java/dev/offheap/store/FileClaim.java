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

import dev.offheap.os.LockedFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A file a {@link MappedArray} has open, and its claim on it: the open file with the lock other processes see
 * ({@link LockedFile}: exclusive for {@code READ_WRITE}, shared for {@code READ_ONLY} and {@code SHARED}: a
 * {@code SHARED} opener opens the file for writing but takes the readers' lock), and its place among the
 * openers of this JVM ({@link FileOpeners}). Both last until {@link #close()}: until the file is really closed.
 */
final class FileClaim implements AutoCloseable {
    private final LockedFile file;
    private final FileOpeners.Opener opener;

    private FileClaim(LockedFile file, FileOpeners.Opener opener) {
        this.file = file;
        this.opener = opener;
    }

    /**
     * Opens an existing file in {@code mode}, refusing anything but a regular file (or a link to one) before it
     * is opened, and a file another opener has.
     *
     * @throws ArrayFileException  if it is not a regular file (a directory, a named pipe, a device, a socket)
     * @throws FileInUseException  if another opener, in this JVM or another process, has it
     * @throws IOException         if it cannot be opened (missing, no permission)
     */
    static FileClaim open(Path path, MappedArray.Mode mode) throws IOException {
        refuseAnythingButARegularFile(path);
        return claim(LockedFile.open(path, mode != MappedArray.Mode.READ_ONLY), path, mode);
    }

    /**
     * Creates a new file, owner-only, open {@code READ_WRITE}; if this throws, no file is left.
     *
     * @throws java.nio.file.FileAlreadyExistsException if something exists at {@code path}
     * @throws IOException if it cannot be created
     */
    static FileClaim create(Path path) throws IOException {
        LockedFile file = LockedFile.createNew(path);
        try {
            return claim(file, path, MappedArray.Mode.READ_WRITE);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static FileClaim claim(LockedFile file, Path path, MappedArray.Mode mode) throws IOException {
        FileOpeners.Opener opener = null;
        try {
            Object key = file.fileKey() != null ? file.fileKey() : path.toAbsolutePath().normalize();
            opener = FileOpeners.register(key, path, mode);
            LockedFile.Lock lock = file.tryLock(mode == MappedArray.Mode.READ_WRITE);
            if (lock != LockedFile.Lock.TAKEN && lock != LockedFile.Lock.NONE) {
                throw heldElsewhere(path, mode, lock);
            }
            return new FileClaim(file, opener);
        } catch (IOException | RuntimeException | Error e) {
            if (opener != null) {
                opener.release();
            }
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static FileInUseException heldElsewhere(Path path, MappedArray.Mode mode, LockedFile.Lock lock) {
        String holder = switch (lock) {
            case HELD_EXCLUSIVE -> "it has the file open READ_WRITE (an exclusive lock)";
            case HELD_SHARED -> "it has the file open READ_ONLY (a shared lock) or SHARED (the same lock), and"
                    + " READ_WRITE is for one opener alone";
            default -> "it holds a lock on the file";
        };
        return new FileInUseException(path, "cannot open it " + mode + ": another process (or a FileLock of this"
                + " JVM's own) has it: " + holder + "; open it once that process has closed it", true, null);
    }

    /** Refuses a directory, a named pipe (whose open would block), a device or a socket, before opening it. */
    private static void refuseAnythingButARegularFile(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        if (!attributes.isRegularFile()) {
            throw new ArrayFileException(path, "not a regular file but " + kind(path, attributes)
                    + ": a mapped array is a regular file; nothing was opened");
        }
    }

    private static String kind(Path path, BasicFileAttributes attributes) {
        if (attributes.isDirectory()) {
            return "a directory";
        }
        int type;
        try {
            type = (Integer) Files.getAttribute(path, "unix:mode") & 0170000;
        } catch (IOException | RuntimeException unknown) { // no "unix" view here: say what is known
            type = 0;
        }
        return switch (type) {
            case 0010000 -> "a named pipe (FIFO)";
            case 0020000 -> "a character device";
            case 0060000 -> "a block device";
            case 0140000 -> "a socket";
            default -> "a device, a pipe or a socket";
        };
    }

    FileChannel channel() {
        return file.channel();
    }

    /** The identity of the open file (device and inode), or null where the file system has none. */
    Object fileKey() {
        return file.fileKey();
    }

    /** Closes the file and gives up its lock, then lets others in this JVM open it, even if closing threw. */
    @Override
    public void close() throws IOException {
        try {
            file.close();
        } finally {
            opener.release();
        }
    }
}
