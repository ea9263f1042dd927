package dev.offheap.store;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.Reclaimer;
import dev.offheap.metrics.ChunkPoolMXBean;
import dev.offheap.metrics.jfr.BudgetExceeded;
import dev.offheap.metrics.jfr.PoolTrimmed;
import dev.offheap.metrics.jmx.Jmx;
import dev.offheap.metrics.jmx.Registration;
import dev.offheap.os.AddressRange;
import dev.offheap.os.OwnedMappings;
import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Typed arrays of any length, made of equal chunks from a pool: the entry point of the store.
 *
 * {@snippet :
 * try (ChunkPool pool = ChunkPool.builder().memoryLimit(8L << 30).spillDirectory(Path.of("/var/tmp")).build();
 *      DoubleArray samples = pool.doubles(20_000_000_000L)) {
 *     samples.set(19_999_999_999L, 1.5);
 * }
 * }
 *
 * <p>An array takes whole chunks: from memory while the memory limit allows, then from the spill file if
 * there is a spill directory. Releasing an array gives its chunks back to the pool at once; {@link #trim()}
 * gives the space of free chunks back to the OS, and so does a memory budget that runs short (the pool is
 * one of its {@link Reclaimer}s). Chunks never move and are all the same size, so the pool never fragments.
 *
 * <p>A request that can never be served (past the memory and spill limits together, or past the mappings
 * a pool may hold) is refused before it takes anything; one that fails half way (a budget refusal, a full
 * disk, a mapping error) gives back everything it took, so the pool, its budgets and its spill file are as
 * before. An array whose last owner released it, or whose pool closed, throws {@link IllegalStateException}
 * from every method (see {@link TypedArray}).
 *
 * <p>On Linux every array is one contiguous range of addresses with its chunks in it: memory chunks are
 * anonymous blocks moved in with their pages ({@code mremap}), spill chunks are pieces of the spill file
 * mapped in ({@code mmap MAP_FIXED}). An element access is one bounds-checked segment access whatever chunks
 * back it. Elsewhere the same arrays work chunk by chunk.
 */
public final class ChunkPool implements AutoCloseable {
    /** 4 MiB: see BENCHMARKS.md ("The cost of making an array, by chunk size") for the measurements behind it. */
    public static final long DEFAULT_CHUNK_SIZE = 4L << 20;

    private final String name;
    private final OwnedMappings.Owner owner;
    private final long chunkSize;
    private final int chunkShift;
    private final boolean contiguous;
    private final ChunkSource memory;
    private final ChunkSource spill;
    private final Path spillDirectory;
    private final MappingBudget mappings;
    private final MemoryBudget memoryBudget;
    private final boolean ownMemoryBudget;
    private final MemoryBudget spillBudget;
    private final Reclaimer reclaimer = bytesWanted -> trimMemory();
    private final Set<ArrayMemory> live = ConcurrentHashMap.newKeySet();
    /** Allocations hold the read lock, close the write lock: close waits for allocations in flight. */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final ChunkPoolMetrics metrics = new ChunkPoolMetrics(this);
    private final Registration jmx;
    private volatile boolean closed;

    private ChunkPool(Builder builder, long chunkSize) throws IOException {
        this.name = builder.name;
        this.owner = OwnedMappings.Owner.named(name);
        this.chunkSize = chunkSize;
        this.chunkShift = Long.numberOfTrailingZeros(chunkSize);
        this.contiguous = !builder.portable && NativeFile.isSupported();
        this.ownMemoryBudget = builder.budget == null || builder.memoryLimit != MemoryBudget.UNLIMITED;
        this.memoryBudget = builder.memoryBudget();
        this.spillDirectory = builder.spillDirectory;
        this.mappings = new MappingBudget(name, chunkSize, builder.mappingLimit);
        BudgetOwner memoryAccount = memoryBudget.owner("store " + name + " memory chunks");
        if (contiguous) {
            this.memory = new MovableChunks("memory", chunkSize, memoryAccount, mappings, owner);
        } else {
            this.memory = new ArenaChunks("memory", chunkSize, memoryAccount, owner);
        }
        ChunkSource spillSource = null;
        this.spillBudget = spillDirectory == null ? null : MemoryBudget.root(name + "-spill", builder.spillLimit);
        if (spillDirectory != null) {
            BudgetOwner spillAccount = spillBudget.owner("store " + name + " spill chunks");
            try {
                spillSource = contiguous
                        ? new FileChunks("spill", chunkSize, spillAccount, NativeFile.spill(spillDirectory, "offheap-" + name))
                        : ChannelChunks.create("spill", chunkSize, spillAccount, spillDirectory, "offheap-" + name);
            } catch (IOException | RuntimeException e) {
                memory.close();
                closeBudgets();
                throw e;
            }
        }
        this.spill = spillSource;
        memory.pool = name;
        if (spill != null) {
            spill.pool = name;
        }
        this.jmx = builder.jmx ? Jmx.registerPool("ChunkPool", name, ChunkPoolMXBean.class, metrics,
                spill == null ? List.of(memoryBudget) : List.of(memoryBudget, spill.budget())) : Registration.NONE;
        memoryBudget.addReclaimer(reclaimer);
    }

    /** A pool with 4 MiB chunks, no memory limit and no spill file. */
    public static ChunkPool create() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public DoubleArray doubles(long length) {
        return doubles(length, Contents.ZEROS);
    }

    public DoubleArray doubles(long length, Contents contents) {
        return new DoubleArray(allocateFor(ElementType.DOUBLE, length, contents), length);
    }

    public LongArray longs(long length) {
        return longs(length, Contents.ZEROS);
    }

    public LongArray longs(long length, Contents contents) {
        return new LongArray(allocateFor(ElementType.LONG, length, contents), length);
    }

    public IntArray ints(long length) {
        return ints(length, Contents.ZEROS);
    }

    public IntArray ints(long length, Contents contents) {
        return new IntArray(allocateFor(ElementType.INT, length, contents), length);
    }

    /**
     * A new array of {@code length} zero {@code short}s, as {@link #shorts(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public ShortArray shorts(long length) {
        return shorts(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code short}s from the pool's chunks, as its siblings {@link #ints} and
     * {@link #bytes} make theirs.
     *
     * @param length   the number of elements
     * @param contents whether the elements start as zeros or as whatever the memory held
     * @return the array, with one owner: the caller
     * @throws NullPointerException     if {@code contents} is null
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public ShortArray shorts(long length, Contents contents) {
        return new ShortArray(allocateFor(ElementType.SHORT, length, contents), length);
    }

    public FloatArray floats(long length) {
        return floats(length, Contents.ZEROS);
    }

    public FloatArray floats(long length, Contents contents) {
        return new FloatArray(allocateFor(ElementType.FLOAT, length, contents), length);
    }

    public ByteArray bytes(long length) {
        return bytes(length, Contents.ZEROS);
    }

    public ByteArray bytes(long length, Contents contents) {
        return new ByteArray(allocateFor(ElementType.BYTE, length, contents), length);
    }

    public long chunkSize() {
        return chunkSize;
    }

    /** Whether arrays are contiguous ranges of addresses (Linux) or chunk by chunk (the portable path). */
    public boolean isContiguous() {
        return contiguous;
    }

    /** The addresses of the pool's memory chunks and arrays, as {@link OwnedMappings.Owner#ranges()} pairs. */
    long[] addressRanges() {
        return owner.ranges();
    }

    public String name() {
        return name;
    }

    /** Gives the space of every free chunk back to the OS and its charge back to the budget; returns the bytes. */
    public long trim() {
        checkOpen();
        long bytes = memory.trim() + (spill == null ? 0 : spill.trim());
        PoolTrimmed.emit(name, "ChunkPool", bytes);
        return bytes;
    }

    /** The memory budget ran short: free memory chunks give their space back (spill space is no memory). */
    private long trimMemory() {
        if (closed) {
            return 0;
        }
        long bytes = memory.trim();
        if (bytes > 0) {
            PoolTrimmed.emit(name, "ChunkPool", bytes);
        }
        return bytes;
    }

    public ChunkPoolStats stats() {
        return new ChunkPoolStats(name, memory.budget().path(), live.size(), mappings.used(), memory.stats(),
                spill == null ? Optional.empty() : Optional.of(spill.stats()));
    }

    /**
     * The pool's figures as JMX shows them ({@code dev.offheap:type=ChunkPool,name=...}, unless built with
     * {@code jmx(false)}), for other monitoring systems. Cheap to read: a few counters under a short lock.
     */
    public ChunkPoolMXBean metrics() {
        return metrics;
    }

    MemoryBudget memoryBudget() {
        return memory.budget();
    }

    MemoryBudget spillBudget() {
        return spill == null ? null : spill.budget();
    }

    /**
     * Ends every array still alive, then frees all memory, closes and so deletes the spill file, and gives
     * every charge back. Safe while other threads still use the arrays: each array's segments end first
     * (a handshake with every thread: an access in progress completes, later ones throw
     * {@link IllegalStateException} naming this pool), and the memory is unmapped only afterwards. Waits for
     * allocations in flight, and for arrays whose last release another thread is making meanwhile: once
     * close returns, nothing of the pool is mapped, in use or charged. A second close does nothing.
     *
     * @throws IllegalStateException after closing everything else, if a native call or an I/O operation
     *         still used a segment of an array: that array's memory stays alive (never freed under the
     *         operation) until its owner releases it
     */
    @Override
    public void close() {
        if (!closing.compareAndSet(false, true)) {
            return;
        }
        closed = true;
        lifecycle.writeLock().lock();
        try {
            RuntimeException failure = null;
            try {
                jmx.close();
                memoryBudget.removeReclaimer(reclaimer);
                for (ArrayMemory array : live) {
                    try {
                        array.closeByOwner();
                    } catch (RuntimeException e) { // an arena still acquired (a native call in progress)
                        failure = failure == null ? e : failure;
                    }
                }
                live.clear();
            } finally {
                try {
                    memory.close();
                    if (spill != null) {
                        spill.close();
                    }
                } finally {
                    closeBudgets();
                }
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Closes the budgets this pool made for itself; a budget given to the builder stays open. */
    private void closeBudgets() {
        if (ownMemoryBudget) {
            memoryBudget.closeQuietly();
        }
        if (spillBudget != null) {
            spillBudget.closeQuietly();
        }
    }

    /** {@link #allocate}, with a budget refusal naming this pool and the array asked for. */
    private ArrayMemory allocateFor(ElementType type, long length, Contents contents) {
        try {
            return allocate(type, length, contents);
        } catch (BudgetExceededException refused) {
            BudgetExceededException named = refused.forRequest("chunk pool '" + name + "'",
                    type.name().toLowerCase(Locale.ROOT) + "s(" + length + ")", length << type.shift());
            BudgetExceeded.emit(name, named);
            throw named;
        }
    }

    /**
     * Sizes the request and refuses it before taking anything if it can never be served (lengths, the
     * limits, the mapping limit); then takes, charges and backs its chunks, clears and maps them. A step
     * that fails gives back everything the earlier ones took. Runs under the read side of
     * {@code lifecycle}: close waits for allocations in flight, so none maps a chunk or uses the spill file
     * after the pool freed them.
     */
    private ArrayMemory allocate(ElementType type, long length, Contents contents) {
        Objects.requireNonNull(contents, "contents");
        checkOpen();
        if (length < 0) {
            throw new IllegalArgumentException("array length must be >= 0: " + length);
        }
        if (length > (Long.MAX_VALUE >> type.shift()) - chunkSize) {
            throw new IllegalArgumentException("an array of " + length + " " + type + " elements is too large");
        }
        long byteSize = length << type.shift();
        long count = (byteSize + chunkSize - 1) >>> chunkShift;
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(length + " " + type + " elements need " + count + " chunks of "
                    + chunkSize + " bytes: use larger chunks");
        }
        lifecycle.readLock().lock();
        try {
            checkOpen();
            ChunkRequest request = takeChunks((int) count);
            Chunk[] chunks = request.chunks;
            Arena arena = Arena.ofShared();
            ArrayMemory array;
            try {
                if (contents == Contents.ZEROS) {
                    request.clearReused();
                }
                array = contiguous ? mapContiguous(chunks, byteSize, arena) : mapScattered(chunks, byteSize, arena);
            } catch (IOException e) {
                arena.close();
                giveBack(request, e);
                throw new UncheckedIOException("cannot map or clear " + chunks.length + " chunks of pool '" + name
                        + "' (spill directory " + spillDirectory + ")", e);
            } catch (RuntimeException | Error e) {
                arena.close();
                giveBack(request, e);
                throw e;
            }
            if (contents == Contents.ZEROS) {
                clearReused(array, chunks);
            }
            live.add(array);
            return array;
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /**
     * Takes {@code count} chunks: free memory chunks, then new ones as far as the memory budget allows (all
     * charged at once, so a refusal charges nothing), then spill chunks. Nothing is backed (no block mapped,
     * no disk space reserved) before every charge succeeded.
     */
    private ChunkRequest takeChunks(int count) {
        refuseTheImpossible(count);
        ChunkRequest request = new ChunkRequest(count, memory, spill);
        try {
            int rest = count - request.takeFreeMemory(count);
            int fromMemory = spill == null ? chargeOrRefuse(memory, rest) : chargeWhatMemoryAllows(rest);
            request.chargedMemory(fromMemory);
            int toSpill = rest - fromMemory;
            if (toSpill > 0) {
                int newSpill = toSpill - request.takeFreeSpill(toSpill);
                request.chargedSpill(chargeOrRefuse(spill, newSpill));
            }
            if (contiguous) {
                mappings.check(fromMemory + (toSpill > 0 ? 1 : 0));
            }
            request.backAll();
            return request;
        } catch (IOException e) {
            giveBack(request, e);
            throw new UncheckedIOException("cannot reserve space for " + count + " chunks of " + chunkSize
                    + " bytes in the spill directory " + spillDirectory, e);
        } catch (RuntimeException | Error e) {
            giveBack(request, e);
            throw e;
        }
    }

    /** Undoes a request that failed with {@code failure}; a failure to undo is added to it, never hides it. */
    private static void giveBack(ChunkRequest request, Throwable failure) {
        try {
            request.giveBack();
        } catch (RuntimeException | Error undo) {
            failure.addSuppressed(undo);
        }
    }

    /**
     * Refuses, before taking anything, a request that cannot be served whatever is freed: more chunks than
     * the limits of the memory budgets and the spill budget hold together, or (Linux) more new memory
     * chunks than mappings are left, counting the memory the budget has room for now.
     */
    private void refuseTheImpossible(int count) {
        MemoryBudget tightest = tightestLevel(memory.budget());
        long memoryChunks = tightest.limit() / chunkSize;
        long spillChunks = spill == null ? 0 : spill.budget().limit() / chunkSize;
        if (count > memoryChunks + spillChunks) {
            MemoryBudget refusing = spill == null ? tightest : spill.budget();
            long requested = spill == null ? count * chunkSize : (count - memoryChunks) * chunkSize;
            throw new BudgetExceededException(refusing.path(), requested, refusing.used(), refusing.limit());
        }
        if (contiguous) {
            long wanted = count - memory.freeCount();
            long memoryNow = spill == null ? wanted : Math.min(wanted, memory.budget().available() / chunkSize);
            mappings.check(memoryNow + (memoryNow < wanted ? 1 : 0));
        }
    }

    /** The level of {@code budget} or its ancestors with the smallest limit. */
    private static MemoryBudget tightestLevel(MemoryBudget budget) {
        MemoryBudget tightest = budget;
        for (MemoryBudget level = budget; level != null; level = level.parent().orElse(null)) {
            if (level.limit() < tightest.limit()) {
                tightest = level;
            }
        }
        return tightest;
    }

    /** Charges {@code count} new chunks of {@code source} at once; the budget's own exception if it refuses. */
    private int chargeOrRefuse(ChunkSource source, int count) {
        source.charge(count); // a refusal is reported by allocateFor, which adds the request
        return count;
    }

    /**
     * Charges as many of {@code wanted} new memory chunks as the memory budget allows (after its
     * reclaimers ran, if it refused them all); the rest go to the spill file.
     */
    private int chargeWhatMemoryAllows(int wanted) {
        if (memory.tryCharge(wanted)) {
            return wanted;
        }
        int room = (int) Math.min(wanted, memory.budget().available() / chunkSize);
        while (room > 0 && !memory.tryCharge(room)) {
            room = (int) Math.min(room - 1, memory.budget().available() / chunkSize);
        }
        return Math.max(0, room);
    }

    private ArrayMemory mapContiguous(Chunk[] chunks, long byteSize, Arena arena) {
        int fileRuns = countFileRuns(chunks);
        mappings.take(fileRuns);
        AddressRange range;
        try {
            range = AddressRange.reserve(Math.max(1, chunks.length) * chunkSize, owner);
        } catch (RuntimeException | Error e) {
            mappings.give(fileRuns);
            throw e;
        }
        int placed = 0;
        try {
            while (placed < chunks.length) {
                placed = place(chunks, placed, range);
            }
        } catch (RuntimeException | Error e) {
            try {
                leave(chunks, placed, range);
                if (chunks.length == 0 || placed < chunks.length) {
                    range.unmap(placed * chunkSize, Math.max(1, chunks.length) * chunkSize - placed * chunkSize);
                }
            } finally {
                mappings.give(fileRuns);
            }
            throw e;
        }
        MemorySegment whole = range.segment(byteSize, arena, () -> {
            leave(chunks, chunks.length, range);
            if (chunks.length == 0) {
                range.unmap();
            }
        });
        MemorySegment[] slices = new MemorySegment[chunks.length];
        for (int i = 0; i < chunks.length; i++) {
            long offset = i * chunkSize;
            slices[i] = whole.asSlice(offset, Math.min(chunkSize, byteSize - offset));
        }
        return new ArrayMemory(owner(), arena, whole, slices, chunkShift, byteSize, array -> {
            mappings.give(fileRuns);
            forget(array, chunks);
        });
    }

    /** Puts the chunk at {@code start} (and the file chunks that follow it in one run) in place; returns the next. */
    private int place(Chunk[] chunks, int start, AddressRange range) {
        Chunk chunk = chunks[start];
        if (chunk.source instanceof MovableChunks) {
            MovableMemory.moveInto(chunk.address, chunkSize, range, start * chunkSize);
            chunk.address = 0;
            return start + 1;
        }
        int end = fileRunEnd(chunks, start);
        ((FileChunks) chunk.source).mapInto(range, start * chunkSize, chunk, end - start);
        return end;
    }

    /**
     * Lets go of the first {@code count} chunks placed in {@code range}: file pieces are unmapped, movable
     * blocks stay where they are, which becomes their address while free (no copy, no system call).
     */
    private void leave(Chunk[] chunks, int count, AddressRange range) {
        for (int start = 0; start < count; ) {
            Chunk chunk = chunks[start];
            if (chunk.source instanceof MovableChunks) {
                chunk.address = range.addressOf(start * chunkSize);
                start++;
            } else {
                int end = Math.min(count, fileRunEnd(chunks, start));
                range.unmap(start * chunkSize, (end - start) * chunkSize);
                start = end;
            }
        }
    }

    private ArrayMemory mapScattered(Chunk[] chunks, long byteSize, Arena arena) throws IOException {
        MemorySegment[] views = new MemorySegment[chunks.length];
        for (int i = 0; i < chunks.length; i++) {
            long offset = i * chunkSize;
            views[i] = chunks[i].source.view(chunks[i], arena).asSlice(0, Math.min(chunkSize, byteSize - offset));
        }
        MemorySegment whole = switch (views.length) {
            case 0 -> arena.allocate(0);
            case 1 -> views[0];
            default -> null;
        };
        return new ArrayMemory(owner(), arena, whole, views, chunkShift, byteSize, array -> forget(array, chunks));
    }

    private void forget(ArrayMemory array, Chunk[] chunks) {
        live.remove(array);
        for (Chunk chunk : chunks) {
            chunk.zero = false;
        }
        for (int i = chunks.length - 1; i >= 0; i--) {
            chunks[i].source.give(chunks[i]); // in reverse: the free lists hand them out in the same order next
        }
    }

    /** Writes zeros over the reused chunks still holding old data; new and punched chunks read as zeros. */
    private static void clearReused(ArrayMemory array, Chunk[] chunks) {
        MemorySegment[] segments = array.chunks();
        for (int i = 0; i < chunks.length; i++) {
            if (!chunks[i].zero) {
                segments[i].fill((byte) 0);
            }
        }
    }

    /**
     * The mappings an array's file chunks add: consecutive chunks of one file at consecutive offsets map with
     * one call as one mapping. (Movable chunks are one mapping each, counted by their source.)
     */
    private int countFileRuns(Chunk[] chunks) {
        int runs = 0;
        for (int start = 0; start < chunks.length; ) {
            if (chunks[start].source instanceof MovableChunks) {
                start++;
            } else {
                runs++;
                start = fileRunEnd(chunks, start);
            }
        }
        return runs;
    }

    private int fileRunEnd(Chunk[] chunks, int start) {
        int end = start + 1;
        while (end < chunks.length && chunks[end].source == chunks[start].source
                && chunks[end].offset == chunks[end - 1].offset + chunkSize) {
            end++;
        }
        return end;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(owner() + " is closed");
        }
    }

    /** How arrays name their pool in messages. */
    private String owner() {
        return "chunk pool '" + name + "'";
    }

    @Override
    public String toString() {
        return "ChunkPool[" + name + ", chunks of " + chunkSize + " bytes" + (contiguous ? ", contiguous" : "")
                + (spillDirectory == null ? "" : ", spill to " + spillDirectory) + "]";
    }

    private static final long MIN_CHUNK_SIZE = 64 << 10;
    private static final long MAX_CHUNK_SIZE = 1L << 30;

    /**
     * Checks that a builder's settings fit together, and fits the chunk size to the limits when it was not
     * set: every limit must hold at least one chunk, and a memory limit's chunks must fit in the mappings a
     * pool may hold (Linux).
     */
    private static final class Settings {
        private final Builder builder;
        private long chunkSize;

        Settings(Builder builder) {
            this.builder = builder;
            this.chunkSize = builder.chunkSize;
        }

        /** Checks the settings; returns the chunk size the pool gets (the builder itself is left as it was). */
        long fit() {
            Builder b = builder;
            if (b.spillDirectory == null && b.spillLimit != MemoryBudget.UNLIMITED) {
                throw new IllegalArgumentException("spillLimit(" + b.spillLimit + ") limits a spill file but there is"
                        + " none: set spillDirectory(...) too, or drop spillLimit");
            }
            if (b.spillDirectory == null && b.memoryLimit == 0) {
                throw new IllegalArgumentException("memoryLimit(0) leaves no memory for arrays and there is no spill"
                        + " file: set spillDirectory(...), or a memoryLimit of at least one chunk");
            }
            if (b.spillDirectory != null && b.spillLimit == 0) {
                throw new IllegalArgumentException("spillLimit(0) leaves no room in the spill file: drop"
                        + " spillDirectory(" + b.spillDirectory + "), or raise spillLimit");
            }
            if (b.memoryLimit > 0) {
                fitChunk(b.memoryLimit, "memoryLimit(" + b.memoryLimit + ")");
            }
            if (b.spillDirectory != null && b.spillLimit > 0) {
                fitChunk(b.spillLimit, "spillLimit(" + b.spillLimit + ")");
            }
            if (b.budget != null) {
                MemoryBudget tightest = tightestLevel(b.budget);
                if (tightest.limit() > 0) {
                    fitChunk(tightest.limit(), "budget '" + tightest.path() + "' (a limit of " + tightest.limit() + ")");
                }
            }
            if (!b.portable && NativeFile.isSupported() && b.memoryLimit != MemoryBudget.UNLIMITED) {
                fitMappings();
            }
            return chunkSize;
        }

        /** A limit below one chunk: a smaller chunk if the size is free, else what to set. */
        private void fitChunk(long limit, String what) {
            if (limit >= chunkSize) {
                return;
            }
            long fitting = Long.highestOneBit(limit);
            if (fitting < MIN_CHUNK_SIZE) {
                throw new IllegalArgumentException(what + " is smaller than the smallest chunk (" + MIN_CHUNK_SIZE
                        + " bytes): raise it to at least " + MIN_CHUNK_SIZE);
            }
            if (builder.chunkSizeSet) {
                throw new IllegalArgumentException(what + " is smaller than one chunk (chunkSize(" + chunkSize
                        + ")): set chunkSize(" + fitting + ") or less, or raise the limit");
            }
            this.chunkSize = fitting;
        }

        /** Memory chunks are one mapping each: a larger chunk if the size is free, else what to set. */
        private void fitMappings() {
            long limit = builder.memoryLimit;
            long mappings = Math.max(1, builder.mappingLimit);
            if (limit / chunkSize <= mappings) {
                return;
            }
            long fitting = chunkSize;
            while (limit / fitting > mappings && fitting < MAX_CHUNK_SIZE) {
                fitting <<= 1;
            }
            if (builder.chunkSizeSet || limit / fitting > mappings) {
                throw new IllegalArgumentException("memoryLimit(" + limit + ") in chunks of " + chunkSize
                        + " bytes needs " + limit / chunkSize + " memory mappings but a pool may hold "
                        + mappings + " (half of vm.max_map_count): set chunkSize(" + fitting + ") or more, or raise"
                        + " vm.max_map_count");
            }
            this.chunkSize = fitting;
        }
    }

    /** Settings of a {@link ChunkPool}. */
    public static final class Builder {
        private String name = "store";
        private long chunkSize = DEFAULT_CHUNK_SIZE;
        private boolean chunkSizeSet;
        private MemoryBudget budget;
        private long memoryLimit = MemoryBudget.UNLIMITED;
        private Path spillDirectory;
        private long spillLimit = MemoryBudget.UNLIMITED;
        private boolean portable;
        private long mappingLimit = MapCount.limitForStores();
        private boolean jmx = true;

        private Builder() {}

        /**
         * The pool's name, in budgets, statistics, JMX and the spill file's name: non-blank, without
         * {@code '/'} (budget paths use it). Default {@code "store"}.
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank() || name.indexOf('/') >= 0) {
                throw new IllegalArgumentException("pool name must be non-blank and contain no '/': '" + name + "'");
            }
            this.name = name;
            return this;
        }

        /**
         * Bytes per chunk: a power of two from 64 KiB to 1 GiB. An array wastes less than one chunk at its
         * end; on Linux every memory chunk is one mapping, in an array or free, and a process may hold 65,530
         * by default ({@code vm.max_map_count}), half of which a pool may use: 128 GiB of 4 MiB chunks.
         *
         * <p>Unless set, the chunk size adapts to the limits: {@link #build()} lowers it to fit a memory
         * limit, spill limit or budget smaller than a chunk, and raises it when a memory limit would need
         * more mappings than the pool may hold. Once set, a limit that does not fit it is an error saying
         * what to set.
         */
        public Builder chunkSize(long bytes) {
            if (bytes < MIN_CHUNK_SIZE || bytes > MAX_CHUNK_SIZE || Long.bitCount(bytes) != 1) {
                throw new IllegalArgumentException("chunk size must be a power of two from 64 KiB to 1 GiB: " + bytes);
            }
            this.chunkSize = bytes;
            this.chunkSizeSet = true;
            return this;
        }

        /**
         * The budget memory chunks are charged to; {@link #memoryLimit} adds a child of it. A budget whose
         * limit (or an ancestor's) is below one chunk lowers the chunk size unless it was set.
         */
        public Builder budget(MemoryBudget budget) {
            this.budget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * The most bytes of memory chunks, in use or free. Beyond it arrays take spill chunks if there is a
         * spill directory, else allocation throws {@code BudgetExceededException}. Default: no limit. 0
         * (everything in the spill file) needs a {@link #spillDirectory}; a limit below one chunk lowers the
         * chunk size unless it was set (see {@link #chunkSize}).
         */
        public Builder memoryLimit(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("memory limit must be >= 0: " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /**
         * Where the spill file goes, for arrays larger than the memory limit. The file is owner-only and
         * unlinked at once on Linux (deleted at close elsewhere), so nothing stays behind.
         */
        public Builder spillDirectory(Path directory) {
            this.spillDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /** The most bytes of spill file; needs a {@link #spillDirectory}. Default: no limit but the disk's. */
        public Builder spillLimit(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("spill limit must be >= 0: " + bytes);
            }
            this.spillLimit = bytes;
            return this;
        }

        /**
         * Whether the pool shows in JMX as {@code dev.offheap:type=ChunkPool,name=<name>} (with a suffix
         * {@code -2}, {@code -3}... if the name is taken), and its budgets as
         * {@code dev.offheap:type=MemoryBudget,name=<path>}, from build to close. Default on.
         */
        public Builder jmx(boolean register) {
            this.jmx = register;
            return this;
        }

        /** Tests: fewer mappings than half of {@code vm.max_map_count}, to reach the limit cheaply. */
        Builder mappingLimit(long mappings) {
            this.mappingLimit = mappings;
            return this;
        }

        /** Tests: the portable path (separate chunk segments), which other platforms use. */
        Builder portable(boolean portable) {
            this.portable = portable;
            return this;
        }

        /**
         * @throws IllegalArgumentException if settings do not fit together (the message says what to set)
         * @throws UncheckedIOException if the spill file cannot be created
         */
        public ChunkPool build() {
            if (spillDirectory != null && Files.exists(spillDirectory) && !Files.isDirectory(spillDirectory)) {
                throw new IllegalArgumentException("spill directory " + spillDirectory + " is not a directory");
            }
            long fittingChunkSize = new Settings(this).fit();
            try {
                return new ChunkPool(this, fittingChunkSize);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the spill file of pool '" + name + "' in "
                        + spillDirectory + ": " + e.getMessage(), e);
            }
        }

        private MemoryBudget memoryBudget() {
            if (budget == null) {
                return MemoryBudget.root(name, memoryLimit);
            }
            return memoryLimit == MemoryBudget.UNLIMITED ? budget : budget.child(name, memoryLimit);
        }
    }
}
