package dev.offheap.store;

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
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One typed array in a file of its own, mapped into memory: it outlives the process, and the file is a
 * valid NumPy {@code .npy} file, so Python reads it as it is with {@code numpy.load(path, mmap_mode='r')}.
 *
 * {@snippet :
 * try (MappedArray file = MappedArray.create(Path.of("prices.npy"), ElementType.DOUBLE, 1_000_000);
 *      DoubleArray prices = file.doubles()) {
 *     prices.set(0, 101.5);
 *     file.force();
 * }
 * }
 *
 * <p><b>Views.</b> {@link #doubles()} and its siblings map the array's current length anew each time. A view
 * is a reference-counted {@link TypedArray} like any other; closing the {@code MappedArray} ends every view
 * still open, and further access through one throws {@link IllegalStateException}. {@link #grow} lengthens
 * the file without touching older views, which keep their length: take a new view to reach the new elements.
 * A read-only file gives read-only views, whose setters throw {@link IllegalArgumentException}.
 *
 * <p><b>Durability.</b> {@link #force()} writes every change made through the views, and the header, to the
 * disk. Closing does not force: changes reach the disk when the OS writes them back, as for any mapped file.
 * The header is written in one write of its whole block, never through a mapping, and only after the space
 * it describes exists: a process killed at any moment leaves a file that opens, holding everything forced.
 *
 * <p><b>Space.</b> The file's data is reserved on disk before it is mapped ({@code fallocate} on Linux, zeros
 * written elsewhere), so a full disk is an {@link IOException} from {@link #create} or {@link #grow}, never a
 * crash when a page is first touched. New files are readable and writable by their owner only. A file that
 * another process truncates while it is mapped cannot be protected against: access to the lost pages then
 * throws {@link InternalError} (the JDK's report of the SIGBUS), it does not crash the JVM.
 *
 * <p><b>Files of other tools.</b> {@code .npy} files written by NumPy ({@code np.save}, formats 1.0 to 3.0)
 * open too, when they hold a 1-D array of int8, int32, int64, float32 or float64 in native byte order.
 * Anything else, and files that are truncated or corrupt, are refused with an {@link ArrayFileException}
 * saying why.
 *
 * <p>The methods of this class are thread-safe; element access follows {@link TypedArray}'s rules. Files are
 * not locked: any number of processes may read one, but only one may open it read-write at a time.
 */
public final class MappedArray implements AutoCloseable {

    /** How a file is opened. */
    public enum Mode {
        READ_ONLY,
        READ_WRITE
    }

    /** The shift that makes one chunk of a whole mapping: views are never split into chunks. */
    private static final int ONE_CHUNK = Long.SIZE - 2;

    private final Path path;
    private final FileChannel channel;
    private final Mode mode;
    private final FileSpace space;
    private final Set<ArrayMemory> views = ConcurrentHashMap.newKeySet();
    private volatile NpyHeader header;
    private boolean closed;

    private MappedArray(Path path, FileChannel channel, Mode mode, NpyHeader header, FileSpace space) {
        this.path = path;
        this.channel = channel;
        this.mode = mode;
        this.header = header;
        this.space = space;
    }

    /**
     * Creates a new file holding {@code length} zeros of {@code type}, open for reading and writing. Its data
     * starts at byte 4096, page aligned.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists: this never overwrites
     * @throws IOException                               if the disk has no room for it (then no file is left)
     */
    public static MappedArray create(Path path, ElementType type, long length) throws IOException {
        return create(path, type, length, FileSpace.system());
    }

    static MappedArray create(Path path, ElementType type, long length, FileSpace space) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(type, "type");
        NpyHeader header = NpyHeader.create(type, length);
        if (length < 0 || length > header.maxLength()) {
            throw new IllegalArgumentException("a mapped array of " + length + " " + type
                    + " elements is impossible: the length must be from 0 to " + header.maxLength());
        }
        FileChannel channel = FileChannel.open(path, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), ownerOnly(path));
        try {
            reserve(space, channel, path, header.dataOffset(), reservedEnd(header));
            writeHeader(channel, header.encode(path));
            channel.force(true);
            forceDirectory(path);
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(channel, e);
            try {
                Files.deleteIfExists(path);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new MappedArray(path, channel, Mode.READ_WRITE, header, space);
    }

    /**
     * Opens an existing {@code .npy} file. Read-write opening makes sure the file's data has disk space behind
     * it (where a tool left holes); without {@code fallocate} (not Linux) that rewrites the whole data once.
     *
     * @throws ArrayFileException if the file is not an array offheap maps, or is truncated or corrupt
     * @throws IOException        if it cannot be read (missing, no permission)
     */
    public static MappedArray open(Path path, Mode mode) throws IOException {
        return open(path, mode, null, FileSpace.system());
    }

    /**
     * Opens an existing {@code .npy} file that must hold {@code expected} elements.
     *
     * @throws ArrayFileException if it holds another type, or as {@link #open(Path, Mode)}
     */
    public static MappedArray open(Path path, Mode mode, ElementType expected) throws IOException {
        return open(path, mode, Objects.requireNonNull(expected, "expected"), FileSpace.system());
    }

    static MappedArray open(Path path, Mode mode, ElementType expected, FileSpace space) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(mode, "mode");
        FileChannel channel = mode == Mode.READ_ONLY ? FileChannel.open(path, StandardOpenOption.READ)
                : FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            NpyHeader header = NpyHeader.read(channel, path);
            if (expected != null && header.type() != expected) {
                throw new ArrayFileException(path, "holds " + header.type() + ", not " + expected);
            }
            if (mode == Mode.READ_WRITE) {
                space.reserve(channel, path, header.dataOffset(), header.dataBytes());
            }
            return new MappedArray(path, channel, mode, header, space);
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(channel, e);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public ElementType elementType() {
        return header.type();
    }

    /** The number of elements now; views taken before a {@link #grow} keep the length they had. */
    public long length() {
        return header.length();
    }

    public Mode mode() {
        return mode;
    }

    /** Views mapped and not yet released. */
    int openViews() {
        return views.size();
    }

    /** The whole array as {@code double}s: a new view of the current length. */
    public DoubleArray doubles() {
        ArrayMemory memory = map(ElementType.DOUBLE);
        return new DoubleArray(memory, memory.byteSize() >> ElementType.DOUBLE.shift());
    }

    public LongArray longs() {
        ArrayMemory memory = map(ElementType.LONG);
        return new LongArray(memory, memory.byteSize() >> ElementType.LONG.shift());
    }

    public IntArray ints() {
        ArrayMemory memory = map(ElementType.INT);
        return new IntArray(memory, memory.byteSize() >> ElementType.INT.shift());
    }

    public FloatArray floats() {
        ArrayMemory memory = map(ElementType.FLOAT);
        return new FloatArray(memory, memory.byteSize() >> ElementType.FLOAT.shift());
    }

    public ByteArray bytes() {
        ArrayMemory memory = map(ElementType.BYTE);
        return new ByteArray(memory, memory.byteSize());
    }

    /**
     * Writes every change made through the views to the disk, and waits until it is there. Nothing to do
     * for a read-only file.
     *
     * @throws IOException if the disk fails
     */
    public synchronized void force() throws IOException {
        checkOpen();
        if (mode == Mode.READ_ONLY) {
            return;
        }
        for (ArrayMemory view : views) {
            try {
                view.whole().force();
            } catch (IllegalStateException closedMeanwhile) {
                // A view released by another thread: its pages are the file's, forced with the channel below.
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        channel.force(true);
    }

    /**
     * Lengthens the array to {@code newLength} elements; the new ones read as zeros. The space is reserved
     * first, then the header is rewritten and forced: a full disk leaves the file as it was, and a process
     * killed meanwhile leaves a file that opens with its old length or its new one. Views taken before keep
     * their length. Growing a file that another tool wrote works if its header has room for the new length.
     *
     * @throws IllegalStateException    if the file is read-only or closed
     * @throws IllegalArgumentException if {@code newLength} is smaller than the length or too large
     * @throws IOException              if the disk has no room (the file keeps its length and data)
     */
    public synchronized void grow(long newLength) throws IOException {
        checkOpen();
        if (mode != Mode.READ_WRITE) {
            throw new IllegalStateException("cannot grow " + path + ": it is open read-only");
        }
        NpyHeader old = header;
        if (newLength < old.length() || newLength > old.maxLength()) {
            throw new IllegalArgumentException("cannot grow " + path + " from " + old.length() + " to " + newLength
                    + " elements: the new length must be from " + old.length() + " to " + old.maxLength());
        }
        if (newLength == old.length()) {
            return;
        }
        NpyHeader next = old.withLength(newLength);
        byte[] block = next.encode(path);
        long oldSize = channel.size();
        long oldEnd = old.dataOffset() + old.dataBytes();
        try {
            reserve(space, channel, path, oldEnd, reservedEnd(next));
            channel.force(true);
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (channel.size() > oldSize) {
                    channel.truncate(oldSize);
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

    /**
     * Ends every view still open (further access through them throws {@link IllegalStateException}) and
     * closes the file, without forcing it. A second close does nothing.
     *
     * @throws UncheckedIOException if closing the file fails
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ArrayMemory view : views) {
            view.close();
        }
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    private synchronized ArrayMemory map(ElementType wanted) {
        checkOpen();
        NpyHeader now = header;
        if (now.type() != wanted) {
            throw new IllegalStateException("file " + path + " holds " + now.type() + ", not " + wanted);
        }
        Arena arena = Arena.ofShared();
        try {
            long fileSize = channel.size();
            if (fileSize < now.dataOffset() + now.dataBytes()) {
                throw new ArrayFileException(path, "truncated since it was opened: " + now.dataBytes()
                        + " bytes of data from byte " + now.dataOffset() + " on, but the file has only " + fileSize
                        + " bytes");
            }
            FileChannel.MapMode mapMode = mode == Mode.READ_ONLY ? FileChannel.MapMode.READ_ONLY
                    : FileChannel.MapMode.READ_WRITE;
            MemorySegment segment = channel.map(mapMode, now.dataOffset(), now.dataBytes(), arena);
            ArrayMemory memory = new ArrayMemory(arena, segment, new MemorySegment[] {segment}, ONE_CHUNK,
                    now.dataBytes(), views::remove);
            views.add(memory);
            return memory;
        } catch (IOException e) {
            arena.close();
            throw new UncheckedIOException("cannot map " + path, e);
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
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

    private static FileAttribute<?>[] ownerOnly(Path file) {
        return isPosix(file)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    private static boolean isPosix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private static void closeAfterFailure(FileChannel channel, Throwable failure) {
        try {
            channel.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("mapped array " + path + " is closed");
        }
    }

    @Override
    public String toString() {
        NpyHeader now = header;
        return "MappedArray[" + path + ", " + now.length() + " " + now.type() + ", " + mode + "]";
    }
}
