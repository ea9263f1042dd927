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

import dev.offheap.os.FileCalls;
import dev.offheap.os.FileSpace;
import dev.offheap.os.NativeMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.function.Function;

/**
 * The {@code .npy} file of a {@link MappedArray}, open: its claim ({@link FileClaim}), its header as it is now,
 * and the file operations that keep the two in step. The space a header describes is reserved before the
 * header is written, a header is written in one write of its whole block, never through a mapping, and the
 * data is mapped only while the file still holds it. The views, their accounting and JMX are the
 * {@code MappedArray}'s; it runs these operations through {@link Uninterruptible}, under its own lock where the
 * header changes.
 */
final class NpyFile {
    private final Path path;
    private final FileClaim claim;
    private final FileChannel channel;
    private final FileSpace space;
    /** The file's identity (device and inode) when opened, to tell whether the path still names it. */
    private final Object fileKey;
    private volatile NpyHeader header;

    private NpyFile(Path path, FileClaim claim, NpyHeader header, FileSpace space) {
        this.path = path;
        this.claim = claim;
        this.channel = claim.channel();
        this.header = header;
        this.space = space;
        this.fileKey = claim.fileKey();
    }

    /**
     * Creates the file with {@code header} and its data's space reserved, forced with its directory entry, and
     * returns what {@code opened} makes of it; if anything throws, no file is left.
     */
    static <T> T create(Path path, NpyHeader header, FileSpace space, Function<NpyFile, T> opened)
            throws IOException {
        FileClaim claim = FileClaim.create(path);
        try {
            FileChannel channel = claim.channel();
            reserve(space, channel, path, header.dataOffset(), reservedEnd(header));
            writeHeader(channel, header.encode(path));
            channel.force(true);
            forceDirectory(path);
            return opened.apply(new NpyFile(path, claim, header, space));
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(claim, e);
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Opens the file in {@code mode}, reads its header (which must be of {@code expected} elements, unless
     * null), makes sure a writer's data has space behind it, and returns what {@code opened} makes of it; if
     * anything throws, the file is closed.
     */
    static <T> T open(Path path, MappedArray.Mode mode, ElementType expected, FileSpace space,
            Function<NpyFile, T> opened) throws IOException {
        FileClaim claim = FileClaim.open(path, mode);
        try {
            FileChannel channel = claim.channel();
            NpyHeader header = NpyHeader.read(channel, path);
            if (expected != null && header.type() != expected) {
                throw new ArrayFileException(path, "holds " + describe(header.dtype()) + ", not " + expected);
            }
            if (mode == MappedArray.Mode.READ_WRITE) { // not SHARED: others may be writing the range (Mode.SHARED)
                space.reserve(channel, path, header.dataOffset(), header.dataBytes());
            }
            return opened.apply(new NpyFile(path, claim, header, space));
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(claim, e);
            throw e;
        }
    }

    NpyHeader header() {
        return header;
    }

    FileChannel channel() {
        return channel;
    }

    /**
     * Refuses a view of the data {@code now} describes once the file no longer holds it all.
     *
     * @throws UncheckedIOException if the file's size cannot be read, or someone else truncated it (an
     *                              {@link ArrayFileException} cause with the sizes)
     */
    void checkHolds(NpyHeader now) {
        long needed = now.dataOffset() + now.dataBytes();
        long fileSize;
        try {
            fileSize = channel.size();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map " + path + ": cannot read its size: " + e.getMessage(), e);
        }
        if (fileSize < needed) {
            ArrayFileException truncated = new ArrayFileException(path, "truncated by someone else: it has "
                    + fileSize + " bytes now, a view of the current length needs " + needed);
            throw new UncheckedIOException("cannot map " + path + ": " + truncated.getMessage(), truncated);
        }
    }

    /** Maps the data {@code now} describes in {@code mapping}, which unmaps it when closed. */
    MemorySegment map(NpyHeader now, FileChannel.MapMode mode, Arena mapping) throws IOException {
        return FileCalls.map(channel, mode, now.dataOffset(), now.dataBytes(), mapping);
    }

    /**
     * Lengthens the file to {@code newLength} elements: the new space is reserved and forced first, then the
     * header is written and forced. A failure before the header leaves the file as it was.
     *
     * @throws ArrayFileException if someone else truncated the file (it is left as it is)
     */
    void grow(long newLength) throws IOException {
        NpyHeader old = header;
        NpyHeader next = old.withLength(newLength);
        byte[] block = next.encode(path);
        long oldSize = channel.size();
        long oldEnd = old.dataOffset() + old.dataBytes();
        if (oldSize < oldEnd) { // growing would turn the lost data into zeros without a word
            throw new ArrayFileException(path, "cannot grow: truncated by someone else: it has " + oldSize
                    + " bytes now, the data needs " + oldEnd);
        }
        try {
            reserve(spaceOfTheOpenFile(), channel, path, oldEnd, reservedEnd(next));
            channel.force(true);
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (channel.size() > oldSize) {
                    FileCalls.truncate(channel, oldSize);
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        writeHeader(channel, block);
        channel.force(true);
        header = next;
    }

    void force() throws IOException {
        channel.force(true);
    }

    /** Closes the file, giving up its lock and its place among this JVM's openers. */
    void close() throws IOException {
        claim.close();
    }

    /**
     * The way to reserve space in this file: {@code fallocate} opens the file again by its path, so once the
     * path names another file or none (removed or replaced underneath), the zeros are written through the
     * channel instead, which reaches this file whatever its path.
     */
    private FileSpace spaceOfTheOpenFile() {
        Object now = fileKey(path);
        return fileKey != null && fileKey.equals(now) ? space : FileSpace.portable();
    }

    /** The identity of the file {@code path} names (device and inode on Unix), or null if none or unknown. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    /** Where the reserved space of a file ends: whole pages, at least one, so that NumPy can map even none. */
    private static long reservedEnd(NpyHeader header) {
        return NativeMemory.roundToPage(header.dataOffset() + Math.max(header.dataBytes(), 1));
    }

    /** Reserves {@code [from, to)}, and checks that the space went into this file and not one put in its place. */
    private static void reserve(FileSpace space, FileChannel channel, Path path, long from, long to)
            throws IOException {
        space.reserve(channel, path, from, to - from);
        if (channel.size() < to) {
            throw new IOException("space reserved for " + path + " up to byte " + to + " is not in the open file, which"
                    + " has " + channel.size() + " bytes: was the file renamed or replaced meanwhile?");
        }
    }

    private static void writeHeader(FileChannel channel, byte[] block) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(block);
        while (buffer.hasRemaining()) {
            channel.write(buffer, buffer.position());
        }
    }

    /** Forces the new file's directory entry too; POSIX only (elsewhere a directory cannot be opened). */
    private static void forceDirectory(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        if (directory != null && isPosix(file)) {
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            }
        }
    }

    private static boolean isPosix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static void closeAfterFailure(FileClaim claim, Throwable failure) {
        try {
            claim.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** A dtype for messages, with the type of its views where their name differs: {@code "uint8 (int8 views)"}. */
    static String describe(NpyDtype dtype) {
        String views = dtype.elementType().toString();
        return views.equals(dtype.toString()) ? views : dtype + " (" + views + " views)";
    }
}
