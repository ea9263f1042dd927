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

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.metrics.MappedArrayMXBean;
import dev.offheap.metrics.jfr.JfrEvents;
import dev.offheap.metrics.jmx.Jmx;
import dev.offheap.metrics.jmx.Registration;
import dev.offheap.os.FileSpace;
import dev.offheap.os.Grace;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.Views;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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
 * still open, and further access through one throws {@link IllegalStateException} naming the file (a segment
 * a view handed out throws the JDK's own {@code IllegalStateException}). Closing while other threads still
 * use views is safe: the views end first (a handshake with every thread), the file is unmapped afterwards,
 * after one more handshake (JDK-8364167: a thread the first one met where it could not throw makes its access
 * after it, into the still mapped view).
 * (JDK 25 also sets the interrupt status of a thread that was inside an access when its view ended; this
 * class's file operations ignore an interrupt status set before they start, so that such a thread never
 * closes the file for the others, as a {@code FileChannel} used by an interrupted thread would.)
 * {@link #grow} lengthens the file without touching older views, which keep their length: take a new view to
 * reach the new elements. A read-only file gives read-only views: every write through one ({@code set},
 * {@code fill}, {@code copyFrom}, a copy into it, a kernel's write in {@code forEachChunk}) throws
 * {@link IllegalArgumentException} naming the file and its mode, and changes nothing. A view's segments are
 * plain native segments over the file's mapping (not {@code isMapped()}: {@link #force()} forces them). An I/O
 * operation or native call holding a view's segment keeps it mapped: its last release throws
 * {@link MemoryInUseException} and changes nothing, and {@link #close()} leaves it mapped and charged until the
 * next close (see there).
 *
 * <p><b>Accounting.</b> Every view is one memory mapping. All mapped arrays and {@link ChunkPool}s of the JVM
 * together may hold half of Linux's {@code vm.max_map_count} (the rest is the JVM's): a view beyond that is
 * refused with an {@link IllegalStateException} that says so. With {@link Options#budget}, each view charges its mapped bytes
 * (address space, in whole pages, as a {@link ChunkPool} charges its chunks' capacity, not the pages resident
 * in RAM) before it is mapped, and gives them back once it is unmapped: a refusal throws the budget's
 * {@link BudgetExceededException} and leaves nothing mapped or charged. Each array shows in JMX as
 * {@code dev.offheap:type=MappedArray,name=<file name>} ({@link MappedArrayMXBean}) from create or open to
 * close, unless {@link Options#jmx(boolean) jmx(false)}.
 *
 * <p><b>Durability.</b> {@link #force()} writes every change made through the views, and the header, to the
 * disk. Closing does not force: changes reach the disk when the OS writes them back, as for any mapped file.
 * The header is written in one write of its whole block, never through a mapping, and only after the space
 * it describes exists: a process killed at any moment leaves a file that opens, holding everything forced.
 *
 * <p><b>Space.</b> The file's data is reserved on disk before it is mapped ({@code fallocate} on Linux, zeros
 * written elsewhere), so a full disk is an {@link IOException} from {@link #create} or {@link #grow}, never a
 * crash when a page is first touched; a failed create leaves no file, a failed grow leaves the file as it was.
 * New files are readable and writable by their owner only.
 *
 * <p><b>Files changed underneath.</b> A file removed (unlinked) or replaced while open keeps working until
 * closed: the open channel and the mappings hold it, and {@link #grow} then writes the new zeros through the
 * channel (it never reserves space in whatever file the path names now). A file that another process truncates while it is mapped cannot be
 * protected against (the locks below are advisory), but it never crashes the JVM: a bulk operation ({@code fill},
 * copies, {@code toArray}, {@code forEachChunk}) on the lost part throws {@link ArrayFileTruncatedException}
 * naming the file, its size now, the size needed and the element; so does {@code get} or {@code set} where
 * the JDK reports the fault at once (interpreted code). In JIT-compiled code the JDK reports a fault
 * asynchronously, at the thread's next safepoint poll, which may lie in the caller's loop: a {@code get} or
 * {@code set} there reads garbage or writes nothing and the caller's code throws the JDK's
 * {@link InternalError} ("a fault occurred in an unsafe memory access operation"). A new view or
 * {@link #grow} of a truncated file is refused with the sizes ({@link ArrayFileException}).
 *
 * <p><b>Files of other tools.</b> {@code .npy} files written by NumPy ({@code np.save}, formats 1.0 to 3.0)
 * open too, when they hold a 1-D array in native byte order of one of the {@link NpyDtype}s: int8, uint8,
 * bool, int16, uint16, int32, int64, float32 or float64. Each opens as the closest array type
 * ({@link #dtype()} says which dtype the file has, {@link #elementType()} which views it gives): uint8 and bool
 * as {@link #bytes()}, int16 and uint16 as {@link #shorts()}. Unsigned values read as Java's signed type
 * ({@link Byte#toUnsignedInt(byte)} and {@link Short#toUnsignedInt(short)} give them back), bool as the bytes 0
 * and 1 (see {@link NpyDtype} for writing). A file keeps its dtype string exactly as its header has it: no
 * write of the header ({@link #grow}) turns {@code '|u1'} into {@code '|i1'} or {@code '<u2'} into
 * {@code '<i2'}. Anything else, and files that are truncated or corrupt, are refused with an
 * {@link ArrayFileException} saying why (an unsupported dtype is named, with the list of those that open).
 *
 * <p><b>One writer, or writers that share.</b> A file is open {@link Mode#READ_WRITE} by one opener at a time, or
 * {@link Mode#READ_ONLY} and {@link Mode#SHARED} by any number (two {@code READ_WRITE} writers would each keep their
 * own length, and the one that grew last would rewrite the header over the other's elements; a {@code SHARED} file
 * keeps its length, and its openers hand data over by the rule {@link Mode#SHARED} states). In this JVM the file is
 * known by its identity (device and inode: a hard or symbolic link names the same file); across processes by a lock on
 * the open file, exclusive for a {@code READ_WRITE} writer and shared for readers and {@code SHARED} openers (on Linux
 * an open file description lock, which no other descriptor of the file closing in this process can drop; elsewhere only
 * {@code READ_WRITE} openers lock, with a {@link java.nio.channels.FileLock}, which the JDK's caveats apply to). An
 * open or create that another opener prevents throws {@link FileInUseException} naming the file and the other opener:
 * in this JVM its mode, path and thread, with the stack that opened it as the cause; in another process the kind of
 * lock it holds. The file is free again once {@link #close()} has succeeded (a close that throws keeps it until a later
 * close succeeds); an array dropped without closing keeps it until the JVM ends. The locks are advisory: a process that
 * takes none, such as NumPy (which never locks) or one writing the file with plain I/O, is not held off.
 *
 * <p>Anything but a regular file (or a link to one) is refused before it is opened, with an
 * {@link ArrayFileException} that names what it is: a directory, a named pipe (whose open would block until a
 * writer came), a device or a socket. On Linux the file is then opened with {@code O_NONBLOCK} and checked
 * again before its channel opens it, so that only a path replaced by a pipe within those microseconds could
 * still block the open.
 *
 * <p>The methods of this class are thread-safe; element access follows {@link TypedArray}'s rules. Every
 * method but {@link #path()}, {@link #toString()} and {@link #close()} throws {@link IllegalStateException}
 * naming the file once it is closed; a second close does nothing.
 */
public final class MappedArray implements AutoCloseable {

    /** How a file is opened. */
    public enum Mode {
        /**
         * Views can be read; a write through one throws {@link IllegalArgumentException} naming the file, and
         * {@link #grow} refuses.
         */
        READ_ONLY,
        /**
         * Views can be read and written, and the file can {@link #grow}; by one opener at a time, in this JVM
         * and across processes, while no one has it {@code READ_ONLY} or {@code SHARED}.
         */
        READ_WRITE,
        /**
         * Views can be read and written by any number of openers at once, in this JVM and in other processes
         * (and NumPy, which takes no lock): an array shared between processes. Each opener maps the same pages
         * of the file ({@code MAP_SHARED}), so a write through one view is a write to every other view of the
         * file, in every process, with no copy and no system call.
         *
         * <p>The file keeps the length it had when it was opened: {@link #grow} throws
         * {@link IllegalStateException} (the header of a file that other processes have mapped is never
         * rewritten), so make the file at its final length ({@link #create} then {@link #close}, or NumPy's
         * {@code np.save}). {@code SHARED} openers share the file with each other and with {@code READ_ONLY}
         * ones (they take the same shared lock across processes), and exclude a {@code READ_WRITE} one, which
         * excludes them. Opening reserves no disk space (reserving writes the range where {@code fallocate} is
         * missing, which could undo another process's writes): a file {@link #create} made, or NumPy wrote, has
         * every block already. {@link #force()} works as in {@code READ_WRITE}: it writes the file's changed
         * pages to disk, whichever process made them.
         *
         * <p><b>Who may write, and how readers see it.</b> Plain {@code get} and {@code set} are ordinary
         * memory accesses: they make no promise about when another process sees a write or in which order it
         * sees several. Hand data over with the atomic element operations of {@link IntArray} and
         * {@link LongArray} ({@code getAcquire}, {@code setRelease}, {@code getVolatile}, {@code setVolatile},
         * {@code compareAndSet}, {@code getAndAdd}), which are atomic and ordered across processes as across
         * threads, because both processes access the same physical memory with the same instructions:
         * <ul>
         * <li>one writer per element range: the process that owns a range writes it with plain {@code set}s,
         *     then <em>publishes</em> it with one {@code setRelease} (or {@code compareAndSet}) of a counter or
         *     sequence element;</li>
         * <li>a reader reads that element with {@code getAcquire} (or {@code getVolatile}) first, then the
         *     plain elements it covers: every write made before the release is seen;</li>
         * <li>elements several processes write (counters, claims, locks) are written only with
         *     {@code compareAndSet} or {@code getAndAdd};</li>
         * <li>a range rewritten in place is read through a sequence lock: the writer makes the sequence odd with
         *     {@code getAndAdd(seq, 1)} (whose read keeps the plain writes after it), writes, and makes it even
         *     with {@code setRelease(seq, odd + 1)}; the reader reads the sequence with {@code getAcquire}, the
         *     data, calls {@link java.lang.invoke.VarHandle#acquireFence()} (so the data is read before what
         *     follows), reads the sequence again, and keeps the data only if it read the same even number
         *     both times.</li>
         * </ul>
         * A writer killed at any moment, even by {@code kill -9}, leaves the others a consistent file: every
         * write it made is in the file's pages (the kernel owns them, not the process), and readers that follow
         * the rule see the last state it published, whole; what it was writing past that is half written, and
         * the rule keeps readers from looking at it (the counter does not cover it; a sequence lock left odd
         * says its range was being written when its writer died). What reaches the disk is another matter:
         * only {@link #force()} promises that. Elsewhere than Linux a {@code SHARED} opener, like a
         * {@code READ_ONLY} one, takes no lock other processes see (see "One writer" above).
         */
        SHARED
    }

    /**
     * How a file is mapped: the budget its views charge, its JMX name. Immutable: each method returns a copy.
     *
     * {@snippet :
     * MappedArray.Options options = MappedArray.Options.defaults().budget(budget).name("prices");
     * try (MappedArray file = MappedArray.open(path, MappedArray.Mode.READ_ONLY, options)) {
     *     // ...
     * }
     * }
     */
    public static final class Options {
        private static final Options DEFAULTS = new Options(null, null, Jmx.Mode.WHEN_SERVER_EXISTS, FileSpace.system(),
                MappingBudget.JVM);

        private final MemoryBudget budget;
        private final String name;
        private final Jmx.Mode jmx;
        private final FileSpace space;
        private final MappingBudget mappings;

        private Options(MemoryBudget budget, String name, Jmx.Mode jmx, FileSpace space, MappingBudget mappings) {
            this.budget = budget;
            this.name = name;
            this.jmx = jmx;
            this.space = space;
            this.mappings = mappings;
        }

        /**
         * No budget, shown in JMX under the file's name.
         *
         * @return the default options, shared (they are immutable)
         */
        public static Options defaults() {
            return DEFAULTS;
        }

        /**
         * The budget each view charges its mapped bytes to. Default: none.
         *
         * @param budget the budget to charge
         * @return a copy of these options with that budget
         * @throws NullPointerException if {@code budget} is null
         */
        public Options budget(MemoryBudget budget) {
            return new Options(Objects.requireNonNull(budget, "budget"), name, jmx, space, mappings);
        }

        /**
         * The name in JMX ({@code -2}, {@code -3}... if taken) and in the budget's owner. Default: the file's name.
         *
         * @param name the name to show
         * @return a copy of these options with that name
         * @throws NullPointerException if {@code name} is null
         */
        public Options name(String name) {
            return new Options(budget, Objects.requireNonNull(name, "name"), jmx, space, mappings);
        }

        /**
         * Whether to register the array's MXBean from create or open to close at once ({@code true}, making the
         * JVM's platform {@code MBeanServer} if need be) or never ({@code false}). By default it registers once
         * that server exists, as the pools do ({@link ChunkPool.Builder#jmx(boolean)}).
         *
         * @param register true to register at once, false to keep the array out of JMX
         * @return a copy of these options with that choice
         */
        public Options jmx(boolean register) {
            return new Options(budget, name, register ? Jmx.Mode.AT_ONCE : Jmx.Mode.OFF, space, mappings);
        }

        /** Tests: another way to reserve disk space. */
        Options space(FileSpace space) {
            return new Options(budget, name, jmx, Objects.requireNonNull(space, "space"), mappings);
        }

        /** Tests: a mapping budget instead of the JVM's, to reach its limit cheaply. */
        Options mappings(MappingBudget mappings) {
            return new Options(budget, name, jmx, space, Objects.requireNonNull(mappings, "mappings"));
        }
    }

    /** The shift that makes one chunk of a whole mapping: views are never split into chunks. */
    private static final int ONE_CHUNK = Long.SIZE - 2;

    private final Path path;
    /** The open file, its header, its lock and its place among this JVM's openers: given up at close. */
    private final NpyFile file;
    private final Mode mode;
    private final MappingBudget mappings;
    private final BudgetOwner account;
    private final Set<ArrayMemory> views = ConcurrentHashMap.newKeySet();
    /** Held by {@link #force()} while it forces the views; a view's arena closes under it (ArrayMemory). */
    private final Object viewsEnd = new Object();
    private final AtomicLong mappedBytes = new AtomicLong();
    private Registration jmx = Registration.NONE;
    private volatile boolean closed;
    /** Every view ended and the file closed: close is done. Guarded by {@code this}. */
    private boolean fileClosed;

    private MappedArray(Path path, NpyFile file, Mode mode, Options options) {
        this.path = path;
        this.file = file;
        this.mode = mode;
        this.mappings = options.mappings;
        this.account = options.budget == null ? null : options.budget.owner("mapped array " + path);
    }

    /** Makes the array, on a file that the caller closes if this throws, and shows it in JMX. */
    private static MappedArray opened(Path path, NpyFile file, Mode mode, Options options) {
        MappedArray array = new MappedArray(path, file, mode, options);
        if (options.jmx != Jmx.Mode.OFF) {
            String name = options.name != null ? options.name : String.valueOf(path.getFileName());
            array.jmx = Jmx.registerPool(options.jmx, "MappedArray", name, MappedArrayMXBean.class,
                    new MappedArrayMetrics(array), options.budget == null ? List.of() : List.of(options.budget));
        }
        return array;
    }

    /**
     * Creates a new file holding {@code length} zeros of {@code type}, open for reading and writing. Its data
     * starts at byte 4096, page aligned; its dtype is the signed one of the same name
     * ({@link NpyDtype#of(ElementType)}: int16 for {@link ElementType#SHORT}).
     *
     * @param path   the new file
     * @param type   the type of the elements
     * @param length the number of elements, all zero
     * @return the array, open for reading and writing
     * @throws NullPointerException                      if an argument is null
     * @throws IllegalArgumentException                  if {@code length} is negative or too large
     * @throws java.nio.file.FileAlreadyExistsException if the file exists: this never overwrites
     * @throws IOException                               if the disk has no room for it (then no file is left)
     */
    public static MappedArray create(Path path, ElementType type, long length) throws IOException {
        return create(path, type, length, Options.defaults());
    }

    /**
     * Creates a new file as {@link #create(Path, ElementType, long)}, mapped with {@code options}. Its dtype
     * is the signed one of the same name ({@link NpyDtype#of(ElementType)}).
     *
     * @param path    the new file
     * @param type    the type of the elements
     * @param length  the number of elements, all zero
     * @param options the budget and JMX name of the mapped array
     * @return the array, open for reading and writing
     * @throws NullPointerException                      if an argument is null
     * @throws IllegalArgumentException                  if {@code length} is negative or too large
     * @throws java.nio.file.FileAlreadyExistsException if the file exists: this never overwrites
     * @throws IOException                               if the disk has no room for it (then no file is left)
     */
    public static MappedArray create(Path path, ElementType type, long length, Options options) throws IOException {
        return create(path, NpyDtype.of(Objects.requireNonNull(type, "type")), length, options);
    }

    /**
     * Creates a new file holding {@code length} zeros of NumPy's {@code dtype}, open for reading and writing,
     * as {@link #create(Path, ElementType, long)}: e.g. {@link NpyDtype#UINT8} makes a {@code '|u1'} file
     * whose views are {@link #bytes()}. The file keeps that dtype for good.
     *
     * @param path   the new file
     * @param dtype  the dtype of the elements
     * @param length the number of elements, all zero
     * @return the array, open for reading and writing
     * @throws NullPointerException                      if an argument is null
     * @throws IllegalArgumentException                  if {@code length} is negative or too large
     * @throws java.nio.file.FileAlreadyExistsException if the file exists: this never overwrites
     * @throws IOException                               if the disk has no room for it (then no file is left)
     */
    public static MappedArray create(Path path, NpyDtype dtype, long length) throws IOException {
        return create(path, dtype, length, Options.defaults());
    }

    /**
     * Creates a new file as {@link #create(Path, NpyDtype, long)}, mapped with {@code options}.
     *
     * @param path    the new file
     * @param dtype   the dtype of the elements
     * @param length  the number of elements, all zero
     * @param options the budget and JMX name of the mapped array
     * @return the array, open for reading and writing
     * @throws NullPointerException                      if an argument is null
     * @throws IllegalArgumentException                  if {@code length} is negative or too large
     * @throws java.nio.file.FileAlreadyExistsException if the file exists: this never overwrites
     * @throws IOException                               if the disk has no room for it (then no file is left)
     */
    public static MappedArray create(Path path, NpyDtype dtype, long length, Options options) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(options, "options");
        NpyHeader header = NpyHeader.create(dtype, length);
        if (length < 0 || length > header.maxLength()) {
            throw new IllegalArgumentException("a mapped array of " + length + " " + dtype
                    + " elements is impossible: the length must be from 0 to " + header.maxLength());
        }
        return Uninterruptible.call(() -> NpyFile.create(path, header, options.space,
                file -> opened(path, file, Mode.READ_WRITE, options)));
    }

    static MappedArray create(Path path, ElementType type, long length, FileSpace space) throws IOException {
        return create(path, type, length, Options.defaults().space(space));
    }

    /**
     * Opens an existing {@code .npy} file. Read-write opening makes sure the file's data has disk space behind
     * it (where a tool left holes); without {@code fallocate} (not Linux) that rewrites the whole data once.
     * {@link Mode#SHARED} opening reserves nothing (see there).
     *
     * @param path the file
     * @param mode read-only, read-write, or shared (read-write with other openers: see {@link Mode#SHARED})
     * @return the array, open in {@code mode}
     * @throws NullPointerException if {@code path} or {@code mode} is null
     * @throws ArrayFileException if the file is not an array offheap maps, or is truncated or corrupt, or is not
     *                            a regular file (a directory, a named pipe, a device: refused unopened)
     * @throws FileInUseException if another opener has the file: {@code READ_WRITE} in this JVM or another
     *                            process, or, for a {@code READ_WRITE} open, {@code READ_ONLY} or {@code SHARED}
     * @throws IOException        if it cannot be read (missing, no permission), or read-write opening finds no
     *                            disk space for its holes
     */
    public static MappedArray open(Path path, Mode mode) throws IOException {
        return open(path, mode, null, Options.defaults());
    }

    /**
     * Opens an existing {@code .npy} file as {@link #open(Path, Mode)}, mapped with {@code options}.
     *
     * @param path    the file
     * @param mode    read-only, or read-write
     * @param options the budget and JMX name of the mapped array
     * @return the array, open in {@code mode}
     * @throws NullPointerException if an argument is null
     * @throws ArrayFileException   if the file is not an array offheap maps, or is truncated or corrupt
     * @throws IOException          as {@link #open(Path, Mode)}
     */
    public static MappedArray open(Path path, Mode mode, Options options) throws IOException {
        return open(path, mode, null, options);
    }

    /**
     * Opens an existing {@code .npy} file that must hold {@code expected} elements.
     *
     * @param path     the file
     * @param mode     read-only, or read-write
     * @param expected the element type the file must hold
     * @return the array, open in {@code mode}
     * @throws NullPointerException if an argument is null
     * @throws ArrayFileException   if it holds another type, or as {@link #open(Path, Mode)}
     * @throws IOException          as {@link #open(Path, Mode)}
     */
    public static MappedArray open(Path path, Mode mode, ElementType expected) throws IOException {
        return open(path, mode, Objects.requireNonNull(expected, "expected"), Options.defaults());
    }

    /**
     * Opens an existing {@code .npy} file that must hold {@code expected} elements (any type if null), mapped
     * with {@code options}.
     *
     * @param path     the file
     * @param mode     read-only, or read-write
     * @param expected the element type the file must hold, or null for any
     * @param options  the budget and JMX name of the mapped array
     * @return the array, open in {@code mode}
     * @throws NullPointerException if {@code path}, {@code mode} or {@code options} is null
     * @throws ArrayFileException   if it holds another type, or as {@link #open(Path, Mode)}
     * @throws IOException          as {@link #open(Path, Mode)}
     */
    public static MappedArray open(Path path, Mode mode, ElementType expected, Options options) throws IOException {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(options, "options");
        return Uninterruptible.call(() -> NpyFile.open(path, mode, expected, options.space,
                file -> opened(path, file, mode, options)));
    }

    static MappedArray open(Path path, Mode mode, ElementType expected, FileSpace space) throws IOException {
        return open(path, mode, expected, Options.defaults().space(space));
    }

    /**
     * The file's path; still answers once closed.
     *
     * @return the path given to create or open
     */
    public Path path() {
        return path;
    }

    /**
     * The element type of the file's views: {@link ElementType#BYTE} for a file of int8, uint8 or bool,
     * {@link ElementType#SHORT} for int16 or uint16 ({@link #dtype()} tells them apart).
     *
     * @return the element type
     * @throws IllegalStateException if the file is closed
     */
    public ElementType elementType() {
        checkOpen();
        return file.header().type();
    }

    /**
     * The NumPy dtype of the file, as its header says: e.g. {@link NpyDtype#UINT8} for a file NumPy saved
     * from a {@code uint8} array, whose views are nonetheless {@link #bytes()} (see {@link NpyDtype}).
     *
     * @return the dtype
     * @throws IllegalStateException if the file is closed
     */
    public NpyDtype dtype() {
        checkOpen();
        return file.header().dtype();
    }

    /**
     * The number of elements now; views taken before a {@link #grow} keep the length they had.
     *
     * @return the length
     * @throws IllegalStateException if the file is closed
     */
    public long length() {
        checkOpen();
        return file.header().length();
    }

    /**
     * How the file was opened: {@link #create} opens read-write.
     *
     * @return the mode
     * @throws IllegalStateException if the file is closed
     */
    public Mode mode() {
        checkOpen();
        return mode;
    }

    /** Views mapped and not yet released. */
    int openViews() {
        return views.size();
    }

    /** Bytes of address space the open views map, in whole pages. */
    long mappedBytes() {
        return mappedBytes.get();
    }

    /** The budget views charge, or null. */
    MemoryBudget budget() {
        return account == null ? null : account.budget();
    }

    /**
     * The whole array as {@code double}s: a new view of the current length, one new mapping. Release it (or
     * close the file) to unmap it.
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public DoubleArray doubles() {
        ArrayMemory memory = map(ElementType.DOUBLE);
        return new DoubleArray(memory, memory.byteSize() >> ElementType.DOUBLE.shift());
    }

    /**
     * The whole array as {@code long}s, as {@link #doubles()}.
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public LongArray longs() {
        ArrayMemory memory = map(ElementType.LONG);
        return new LongArray(memory, memory.byteSize() >> ElementType.LONG.shift());
    }

    /**
     * The whole array as {@code int}s, as {@link #doubles()}.
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public IntArray ints() {
        ArrayMemory memory = map(ElementType.INT);
        return new IntArray(memory, memory.byteSize() >> ElementType.INT.shift());
    }

    /**
     * The whole array as {@code short}s, as {@link #doubles()}: the views of a file of int16 or of uint16
     * (whose values read as signed shorts: {@link Short#toUnsignedInt(short)} gives them back).
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public ShortArray shorts() {
        ArrayMemory memory = map(ElementType.SHORT);
        return new ShortArray(memory, memory.byteSize() >> ElementType.SHORT.shift());
    }

    /**
     * The whole array as {@code float}s, as {@link #doubles()}.
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public FloatArray floats() {
        ArrayMemory memory = map(ElementType.FLOAT);
        return new FloatArray(memory, memory.byteSize() >> ElementType.FLOAT.shift());
    }

    /**
     * The whole array as {@code byte}s, as {@link #doubles()}: the views of a file of int8, uint8 (whose values
     * read as signed bytes: {@link Byte#toUnsignedInt(byte)} gives them back) or bool (0 and 1).
     *
     * @return a new view of the current length, with one owner: the caller
     * @throws IllegalStateException    if the file holds another type, is closed, or the mapping limit is reached
     * @throws BudgetExceededException  if the budget refuses the view's bytes (nothing is mapped then)
     * @throws UncheckedIOException     if the file cannot be mapped, saying why (truncated by someone else: an
     *                                  {@link ArrayFileException} cause with the sizes)
     */
    public ByteArray bytes() {
        ArrayMemory memory = map(ElementType.BYTE);
        return new ByteArray(memory, memory.byteSize());
    }

    /**
     * Writes every change made through the views to the disk, and waits until it is there. Nothing to do
     * for a read-only file. A {@link Mode#SHARED} file's pages are the same in every process that maps it:
     * this writes the changes of every process made so far, and promises nothing about writes still under
     * way elsewhere (a sequence element published before the call is on disk with what it covers). A view released on another thread meanwhile ends once the force is done: its
     * release waits.
     *
     * @throws IllegalStateException if the file is closed
     * @throws IOException if the disk fails
     */
    public synchronized void force() throws IOException {
        checkOpen();
        if (mode == Mode.READ_ONLY) {
            return;
        }
        synchronized (viewsEnd) {
            for (ArrayMemory view : views) {
                try {
                    ((MappedView) view.file()).mapping().force();
                } catch (IllegalStateException releasedBefore) {
                    // Ended by another thread before this force began, and not yet out of the set: its pages are
                    // the file's, forced with the channel below.
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
        }
        Uninterruptible.call(() -> {
            file.force();
            return null;
        });
    }

    /**
     * Lengthens the array to {@code newLength} elements; the new ones read as zeros. The space is reserved
     * first, then the header is rewritten and forced: a full disk leaves the file as it was, and a process
     * killed meanwhile leaves a file that opens with its old length or its new one. Views taken before keep
     * their length. Growing a file that another tool wrote works if its header has room for the new length.
     *
     * @param newLength the new number of elements, at least the current one (the same does nothing)
     * @throws IllegalStateException    if the file is read-only, {@link Mode#SHARED} (whose length is fixed) or closed
     * @throws IllegalArgumentException if {@code newLength} is smaller than the length or too large
     * @throws ArrayFileException       if someone else truncated the file (it is left as it is)
     * @throws IOException              if the disk has no room (the file keeps its length and data)
     */
    public synchronized void grow(long newLength) throws IOException {
        checkOpen();
        if (mode == Mode.READ_ONLY) {
            throw new IllegalStateException("cannot grow " + path + ": it is open read-only");
        }
        if (mode == Mode.SHARED) {
            throw new IllegalStateException("cannot grow " + path + ": it is open SHARED, and a file that other"
                    + " processes may have mapped keeps its length (its header is never rewritten under them); make"
                    + " it at its final length, or grow it while it is open READ_WRITE by one opener alone");
        }
        NpyHeader old = file.header();
        if (newLength < old.length() || newLength > old.maxLength()) {
            throw new IllegalArgumentException("cannot grow " + path + " from " + old.length() + " to " + newLength
                    + " elements: the new length must be from " + old.length() + " to " + old.maxLength());
        }
        if (newLength == old.length()) {
            return;
        }
        Uninterruptible.call(() -> {
            file.grow(newLength);
            return null;
        });
    }

    /**
     * Ends every view still open, then closes the file, without forcing it. Threads still using a view get
     * {@link IllegalStateException} naming the file; ending the views is a handshake with every thread, so
     * none is mid-access when the file is unmapped (after one more handshake). Every charge goes back to the
     * budget and the MXBean is unregistered; once the file is closed its lock is given up, and others may open
     * it. Once a close has done all this, closing again does nothing.
     *
     * <p>The JDK refuses to end a view while an I/O operation or native call holds one of its segments (a
     * {@code ByteBuffer} of it being written to a channel, say), and the view is never unmapped under it: it
     * stays mapped and charged, and the operation goes on into it. Every other view ends, the array counts as
     * closed (every method throws, and so does every method of the held view's handle, {@code get} and
     * {@code set} with the limits {@link TypedArray} states), the file stays open for the held view, and this
     * throws {@link MemoryInUseException} with the views' bytes. Call close again once the operation has ended:
     * it unmaps the view, gives its charge back and closes the file (or throws the same way while the view is
     * still held).
     *
     * @throws MemoryInUseException  if a view is held by an I/O operation or native call (see above)
     * @throws UncheckedIOException  if closing the file fails
     */
    @Override
    public synchronized void close() {
        if (fileClosed) {
            return;
        }
        closed = true;
        jmx.close();
        List<ArrayMemory> held = new ArrayList<>();
        for (ArrayMemory view : views) {
            if (!view.closeByOwner()) {
                held.add(view);
            }
        }
        if (!held.isEmpty()) {
            long heldBytes = 0;
            for (ArrayMemory view : held) {
                heldBytes += ((MappedView) view.file()).charge();
            }
            boolean one = held.size() == 1;
            throw new MemoryInUseException("cannot close mapped array " + path + " completely: " + (one ? "one"
                    : held.size()) + " of its views cannot end", heldBytes, "every other view was unmapped; "
                    + (one ? "that view stays" : "those views stay") + " mapped and charged"
                    + (account == null ? "" : " to '" + account.budget().path() + "'") + ", refuses every use and"
                    + " keeps the file open; call close() again once that operation has ended to unmap "
                    + (one ? "it" : "them") + " and close the file", null);
        }
        fileClosed = true;
        if (account != null) {
            account.close();
        }
        try {
            file.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + path, e);
        }
    }

    private ArrayMemory map(ElementType wanted) {
        try {
            return Uninterruptible.call(() -> mapNow(wanted));
        } catch (IOException impossible) { // mapNow throws UncheckedIOException
            throw new UncheckedIOException(impossible);
        }
    }

    /** Maps the data as it is now: the budget and the mapping limit are asked first, and undone on failure. */
    private synchronized ArrayMemory mapNow(ElementType wanted) {
        checkOpen();
        NpyHeader now = file.header();
        if (now.type() != wanted) {
            throw new IllegalStateException("file " + path + " holds " + NpyFile.describe(now.dtype()) + ", not "
                    + wanted);
        }
        file.checkHolds(now);
        long charge = NativeMemory.roundToPage(now.dataBytes());
        if (account != null) {
            try {
                account.charge(charge);
            } catch (BudgetExceededException refused) {
                JfrEvents.budgetExceeded("mapped array " + path, refused);
                throw refused;
            }
        }
        boolean mapped = false;
        try {
            try {
                mappings.take(1);
            } catch (IllegalStateException full) {
                throw new IllegalStateException("cannot map " + path + ": " + full.getMessage(), full);
            }
            try {
                ArrayMemory memory = mapView(now, charge);
                mapped = true;
                return memory;
            } finally {
                if (!mapped) {
                    mappings.give(1);
                }
            }
        } finally {
            if (!mapped && account != null) {
                account.release(charge);
            }
        }
    }

    /**
     * Maps the data in an arena of the view's own ({@code mapping}, never handed out), and hands out a segment
     * over the same addresses in another ({@code arena}): a view ends by closing {@code arena}, which unmaps
     * nothing, then {@code mapping}, whose handshake is the view's grace and which unmaps it.
     */
    private ArrayMemory mapView(NpyHeader now, long charge) {
        Arena arena = Arena.ofShared();
        Arena mapping = Arena.ofShared();
        try {
            FileChannel.MapMode mapMode = mode == Mode.READ_ONLY ? FileChannel.MapMode.READ_ONLY
                    : FileChannel.MapMode.READ_WRITE; // SHARED too: MAP_SHARED, the pages every process maps
            MemorySegment mapped = file.map(now, mapMode, mapping);
            MemorySegment segment = Views.over(mapped, arena);
            ArrayMemory memory = new ArrayMemory("", arena, mapping, segment, new MemorySegment[] {segment}, ONE_CHUNK,
                    now.dataBytes(), this::unmapped, new MappedView(path, file.channel(), now.dataOffset() + now.dataBytes(),
                    charge, viewsEnd, mapped));
            views.add(memory);
            mappedBytes.addAndGet(charge);
            return memory;
        } catch (IOException e) {
            Grace.endViews(arena); // never handed out: these close
            Grace.endViews(mapping);
            throw new UncheckedIOException("cannot map " + path + " (" + now.dataBytes() + " bytes from byte "
                    + now.dataOffset() + "): " + reason(e), e);
        } catch (RuntimeException | Error e) {
            Grace.endViews(arena);
            Grace.endViews(mapping);
            throw e;
        }
    }

    /**
     * A view's arena is closed, its pages unmapped: its mapping and its bytes go back, and only then does it
     * leave {@code views}. A close that does not find it there returns at once, so by then it must be back.
     */
    private void unmapped(ArrayMemory view) {
        long charge = ((MappedView) view.file()).charge();
        mappedBytes.addAndGet(-charge);
        mappings.give(1);
        if (account != null) {
            account.release(charge);
        }
        views.remove(view);
    }

    /** The message of a failed map and of its causes (the JDK wraps the errno of mmap in an OutOfMemoryError). */
    private static String reason(Throwable failure) {
        StringBuilder reason = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (!reason.isEmpty()) {
                reason.append(": ");
            }
            reason.append(t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName());
        }
        return reason.toString();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("mapped array " + path + " is closed");
        }
    }

    @Override
    public String toString() {
        NpyHeader now = file.header();
        return "MappedArray[" + path + ", " + now.length() + " " + now.dtype() + ", " + mode + "]";
    }
}
