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
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.account.Reclaimer;
import dev.offheap.metrics.ChunkPoolMXBean;
import dev.offheap.metrics.jfr.JfrEvents;
import dev.offheap.metrics.jmx.Jmx;
import dev.offheap.metrics.jmx.Registration;
import dev.offheap.os.Grace;
import dev.offheap.os.OwnedMappings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
 * one of its {@link Reclaimer}s). Chunks are all the same size and any chunk can take any place in an array,
 * so the pool never fragments.
 *
 * <p>A request that can never be served (past the memory and spill limits together, or past the mappings
 * left to the JVM's pools and mapped arrays together: half of {@code vm.max_map_count}) is refused before it
 * takes anything; one that fails half way (a budget refusal, a full disk, a mapping error) gives back everything it took, so the pool, its budgets and its spill file are as
 * before. An array whose last owner released it, or whose pool closed, throws {@link IllegalStateException}
 * from every method (see {@link TypedArray}).
 *
 * <p>Memory an I/O operation or native call is using through one of an array's segments (a {@code ByteBuffer}
 * of it in a channel's read or write) is never freed, unmapped or lent to another array under it: the JDK
 * refuses to end the segment meanwhile. The array's last release then throws
 * {@link MemoryInUseException} and changes nothing; the pool's close quarantines the array (see
 * {@link #close()}). The memory of an array that ended waits for one more handshake with every thread before
 * another array reuses it, or it is unmapped or given back ({@code dev.offheap.os.Grace}, JDK-8364167); each
 * release pays for it before it returns, unless another thread's handshake passed meanwhile.
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
    /** Chosen once, at build: how arrays are laid out, and so which kinds of chunk source the pool has. */
    private final ArrayLayout layout;
    private final ChunkSource memory;
    private final ChunkSource spill;
    private final Path spillDirectory;
    private final MemoryBudget memoryBudget;
    private final boolean ownMemoryBudget;
    private final MemoryBudget spillBudget;
    private final boolean ownSpillBudget;
    private final Reclaimer reclaimer = bytesWanted -> trimMemory();
    /** The arrays not yet ended, each with its chunks. */
    private final Map<ArrayMemory, Chunk[]> live = new ConcurrentHashMap<>();
    /** Allocations hold the read lock, close the write lock: close waits for allocations in flight. */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final ChunkPoolMetrics metrics = new ChunkPoolMetrics(this);
    private final Registration jmx;
    /** Set by the first close: no new array from then on. */
    private volatile boolean closed;
    /** Set by the first close that got the write lock. Guarded by the write lock. */
    private boolean closeBegun;
    /** Set once a close gave everything back; until then every close tries again. Guarded by the write lock. */
    private boolean closeDone;
    /** Bytes of memory chunks held by quarantined arrays, as the last close left them. */
    private volatile long bytesQuarantined;

    private ChunkPool(ChunkPoolSettings settings) throws IOException {
        this.name = settings.name();
        this.owner = OwnedMappings.Owner.named(name);
        this.chunkSize = settings.chunkSize();
        this.chunkShift = Long.numberOfTrailingZeros(chunkSize);
        this.layout = ArrayLayout.of(settings.contiguous(), name, chunkSize, settings.mappingLimit(),
                settings.jvmMappings(), owner);
        this.ownMemoryBudget = settings.ownsMemoryBudget();
        this.memoryBudget = settings.memoryBudget();
        this.spillDirectory = settings.spillDirectory();
        this.memory = layout.memorySource(memoryBudget.owner("store " + name + " memory chunks"));
        ChunkSource spillSource = null;
        this.spillBudget = spillDirectory == null ? null : settings.spillBudget();
        this.ownSpillBudget = settings.ownsSpillBudget();
        if (spillDirectory != null) {
            try {
                spillSource = layout.spillSource(spillBudget.owner("store " + name + " spill chunks"), spillDirectory);
            } catch (IOException | RuntimeException e) {
                memory.close();
                closeBudgets();
                throw e;
            }
        }
        this.spill = spillSource;
        this.jmx = Jmx.registerPool(settings.jmx(), "ChunkPool", name, ChunkPoolMXBean.class, metrics,
                spill == null ? List.of(memoryBudget) : List.of(memoryBudget, spill.budget()));
        memoryBudget.addReclaimer(reclaimer);
    }

    /**
     * A pool with 4 MiB chunks, no memory limit and no spill file, in JMX.
     *
     * @return the new pool, to close after use
     */
    public static ChunkPool create() {
        return builder().build();
    }

    /**
     * Settings for a new pool: {@code ChunkPool.builder().memoryLimit(...).spillDirectory(...).build()}.
     *
     * @return a builder with the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A new array of {@code length} zero {@code double}s, as {@link #doubles(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public DoubleArray doubles(long length) {
        return doubles(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code double}s from the pool's chunks: memory chunks while the memory
     * limit allows, then spill chunks.
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
    public DoubleArray doubles(long length, Contents contents) {
        return new DoubleArray(allocateFor(ElementType.DOUBLE, length, contents), length);
    }

    /**
     * A new array of {@code length} zero {@code long}s, as {@link #longs(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public LongArray longs(long length) {
        return longs(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code long}s from the pool's chunks: memory chunks while the memory
     * limit allows, then spill chunks.
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
    public LongArray longs(long length, Contents contents) {
        return new LongArray(allocateFor(ElementType.LONG, length, contents), length);
    }

    /**
     * A new array of {@code length} zero {@code int}s, as {@link #ints(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public IntArray ints(long length) {
        return ints(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code int}s from the pool's chunks: memory chunks while the memory
     * limit allows, then spill chunks.
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

    /**
     * A new array of {@code length} zero {@code float}s, as {@link #floats(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public FloatArray floats(long length) {
        return floats(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code float}s from the pool's chunks: memory chunks while the memory
     * limit allows, then spill chunks.
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
    public FloatArray floats(long length, Contents contents) {
        return new FloatArray(allocateFor(ElementType.FLOAT, length, contents), length);
    }

    /**
     * A new array of {@code length} zero {@code byte}s, as {@link #bytes(long, Contents)} with
     * {@link Contents#ZEROS}.
     *
     * @param length the number of elements
     * @return the array, with one owner: the caller
     * @throws IllegalArgumentException if {@code length} is negative or too large for the pool
     * @throws IllegalStateException    if the pool is closed, or its chunks would pass the mapping limit
     * @throws BudgetExceededException  if the pool's memory limit, spill limit or budget refuses the chunks
     * @throws java.io.UncheckedIOException if the spill file cannot be grown, mapped or cleared
     */
    public ByteArray bytes(long length) {
        return bytes(length, Contents.ZEROS);
    }

    /**
     * A new array of {@code length} {@code byte}s from the pool's chunks: memory chunks while the memory
     * limit allows, then spill chunks.
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
    public ByteArray bytes(long length, Contents contents) {
        return new ByteArray(allocateFor(ElementType.BYTE, length, contents), length);
    }

    /**
     * Bytes per chunk, as the builder set or fitted it.
     *
     * @return the chunk size, a power of two
     */
    public long chunkSize() {
        return chunkSize;
    }

    /**
     * Whether arrays are contiguous ranges of addresses (Linux) or chunk by chunk (the portable path).
     *
     * @return true on the contiguous layout, chosen once when the pool was built
     */
    public boolean isContiguous() {
        return layout.isContiguous();
    }

    /** The addresses of the pool's memory chunks and arrays, as {@link OwnedMappings.Owner#ranges()} pairs. */
    long[] addressRanges() {
        return owner.ranges();
    }

    /**
     * The pool's name, as given to the builder or {@code chunk-pool-N}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The budget the pool's memory chunks charge: the builder's {@link Builder#budget budget}, a child of it
     * named after the pool when a {@link Builder#memoryLimit memory limit} was set, or a root of the pool's
     * own.
     *
     * @return the memory chunks' budget
     */
    public MemoryBudget budget() {
        return memoryBudget;
    }

    /**
     * Gives the space of every free chunk back to the OS (memory) or the file system (spill file), and its
     * charge back to the budget. Free chunks are all the space there is to give back: memory an I/O operation
     * holds in an open pool belongs to a live array (its release changed nothing), never to a free chunk.
     *
     * @return the bytes given back by this call
     * @throws IllegalStateException if the pool is closed
     */
    public long trim() {
        checkOpen();
        long bytes = memory.trim() + (spill == null ? 0 : spill.trim());
        JfrEvents.poolTrimmed(name, "ChunkPool", bytes);
        return bytes;
    }

    /** The memory budget ran short: free memory chunks give their space back (spill space is no memory). */
    private long trimMemory() {
        if (closed) {
            return 0;
        }
        long bytes = memory.trim();
        if (bytes > 0) {
            JfrEvents.poolTrimmed(name, "ChunkPool", bytes);
        }
        return bytes;
    }

    /**
     * A snapshot of the pool: its memory chunks (the {@link dev.offheap.metrics.PoolStats} figures), its spill
     * file's, live arrays and mappings. Cheap: counters read under a short lock.
     *
     * @return the snapshot
     */
    public ChunkPoolStats stats() {
        return new ChunkPoolStats(name, memoryBudget.path(), live.size(), layout.mappingsUsed(), bytesQuarantined,
                memory.stats(),
                spill == null ? Optional.empty() : Optional.of(spill.stats()));
    }

    /**
     * The pool's figures as JMX shows them ({@code dev.offheap:type=ChunkPool,name=...}, unless built with
     * {@code jmx(false)}), for other monitoring systems. Cheap to read: a few counters under a short lock.
     *
     * @return the figures, read live
     */
    public ChunkPoolMXBean metrics() {
        return metrics;
    }

    MemoryBudget spillBudget() {
        return spill == null ? null : spill.budget();
    }

    /**
     * Ends every array still alive, then frees all memory, closes and so deletes the spill file, and gives
     * every charge back. Safe while other threads still use the arrays: each array's segments end first
     * (a handshake with every thread: an access in progress completes, later ones throw
     * {@link IllegalStateException} naming this pool), and the memory is unmapped only after one more. Waits
     * for allocations in flight, and for arrays whose last release another thread is making meanwhile: once
     * close returns, nothing of the pool is mapped, in use or charged. No new array is made from the moment
     * close begins.
     *
     * <p>An array whose segment an I/O operation or native call still holds (a {@code ByteBuffer} of it in a
     * blocked read, say) cannot end: the JDK holds its arena. Its memory is never freed under the operation: it
     * stays mapped and charged, counted in {@link ChunkPoolStats#bytesQuarantined()}, and the operation goes on
     * into it. The array is quarantined: every method of its handle throws {@link IllegalStateException} naming
     * this pool ({@code get} and {@code set} with the limits {@link TypedArray} states), while the segments it
     * handed out keep working until it ends. Everything else goes back (the other arrays end, free chunks are
     * given back), and this throws {@link MemoryInUseException} naming the arrays, their bytes and what to do:
     * call close again once the operation has ended. That close ends them and gives everything back; it
     * throws the same way while they are still held. Once a close has given everything back, closing again
     * does nothing.
     *
     * @throws MemoryInUseException if an I/O operation or native call holds a segment of an array (see above)
     */
    @Override
    public void close() {
        closed = true;
        lifecycle.writeLock().lock();
        try {
            if (closeDone) {
                return;
            }
            boolean first = !closeBegun;
            closeBegun = true;
            RuntimeException failure = null;
            List<ArrayMemory> held = new ArrayList<>();
            try {
                if (first) {
                    jmx.close();
                    memoryBudget.removeReclaimer(reclaimer);
                }
                for (ArrayMemory array : live.keySet()) {
                    try {
                        if (!array.closeByOwner()) {
                            held.add(array);
                        }
                    } catch (RuntimeException e) {
                        failure = failure == null ? e : failure;
                    }
                }
            } finally {
                if (held.isEmpty()) {
                    closeDone = true;
                    bytesQuarantined = 0;
                    live.clear();
                    try {
                        memory.close();
                    } finally { // a refused munmap of the memory chunks must not leave the spill file open
                        try {
                            if (spill != null) {
                                spill.close();
                            }
                        } finally {
                            closeBudgets();
                        }
                    }
                } else {
                    memory.trim(); // what is free goes back; the quarantined arrays' chunks stay mapped and charged
                    if (spill != null) {
                        spill.trim();
                    }
                }
            }
            if (!held.isEmpty()) {
                MemoryInUseException inUse = quarantined(held);
                if (failure != null) {
                    inUse.addSuppressed(failure);
                }
                throw inUse;
            }
            if (failure != null) {
                throw failure;
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Counts the quarantined arrays' memory chunks, and says what stays behind and what to do. */
    private MemoryInUseException quarantined(List<ArrayMemory> held) {
        long heldBytes = 0;
        long memoryChunks = 0;
        StringBuilder arrays = new StringBuilder();
        for (ArrayMemory array : held) {
            Chunk[] chunks = live.getOrDefault(array, new Chunk[0]);
            heldBytes += chunks.length * chunkSize;
            for (Chunk chunk : chunks) {
                memoryChunks += chunk.source == memory ? 1 : 0;
            }
            TypedArray handle = array.handle();
            arrays.append(arrays.isEmpty() ? "" : ", ")
                    .append(handle == null ? "an array of " + array.byteSize() + " bytes" : handle.describe());
        }
        bytesQuarantined = memoryChunks * chunkSize;
        boolean one = held.size() == 1;
        return new MemoryInUseException("cannot close " + owner() + " completely: " + (one ? "its array " : "its "
                + held.size() + " arrays ") + arrays + " cannot end", heldBytes, "everything else went back; "
                + (one ? "that array's" : "their") + " chunks stay mapped and charged to '" + memoryBudget.path()
                + "' (stats().bytesQuarantined()), " + (one ? "the array refuses" : "the arrays refuse")
                + " every use, and the pool makes no new array; call close() again once that operation has ended to"
                + " give them back", null);
    }

    /** Closes the budgets this pool made for itself; a budget given to the builder stays open. */
    private void closeBudgets() {
        if (ownMemoryBudget) {
            memoryBudget.closeQuietly();
        }
        if (spillBudget != null && ownSpillBudget) {
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
            JfrEvents.budgetExceeded(name, named);
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
        memoryBudget.checkOpen(); // free chunks need no charge: a closed budget must still refuse them
        if (spill != null) {
            spill.budget().checkOpen();
        }
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
                array = layout.map(chunks, byteSize, arena, ended -> forget(ended, chunks));
            } catch (IOException e) {
                Grace.endViews(arena); // never handed out: it closes
                request.giveBackAfter(e);
                throw new UncheckedIOException("cannot map or clear " + chunks.length + " chunks of pool '" + name
                        + "' (spill directory " + spillDirectory + ")", e);
            } catch (RuntimeException | Error e) {
                Grace.endViews(arena);
                request.giveBackAfter(e);
                throw e;
            }
            if (contents == Contents.ZEROS) {
                request.fillReused(array.chunks());
            }
            live.put(array, chunks);
            return array;
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** {@link ChunkRequest#take}, with a full disk named for this pool. */
    private ChunkRequest takeChunks(int count) {
        try {
            return ChunkRequest.take(count, memory, spill, layout);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reserve space for " + count + " chunks of " + chunkSize
                    + " bytes in the spill directory " + spillDirectory, e);
        }
    }

    /**
     * An array ended (its arena closed, its chunks let go of): its chunks go back to their sources, and only
     * then does it leave {@code live}. A close that does not find it there goes on to close the sources, so by
     * then its chunks must be back.
     */
    private void forget(ArrayMemory array, Chunk[] chunks) {
        for (int i = chunks.length - 1; i >= 0; i--) {
            chunks[i].source.giveFromArray(chunks[i]); // in reverse: the free lists hand them out in the same order next
        }
        live.remove(array);
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
        return "ChunkPool[" + name + ", chunks of " + chunkSize + " bytes" + (layout.isContiguous() ? ", contiguous" : "")
                + (spillDirectory == null ? "" : ", spill to " + spillDirectory) + "]";
    }

    /** Settings of a {@link ChunkPool}. */
    public static final class Builder {
        private static final AtomicInteger POOL_NUMBER = new AtomicInteger();

        private String name;
        private long chunkSize = DEFAULT_CHUNK_SIZE;
        private boolean chunkSizeSet;
        private MemoryBudget budget;
        private long memoryLimit = MemoryBudget.UNLIMITED;
        private Path spillDirectory;
        private long spillLimit = MemoryBudget.UNLIMITED;
        private MemoryBudget spillBudget;
        private boolean portable;
        private long mappingLimit = MapCount.limitForStores();
        private MappingBudget jvmMappings = MappingBudget.JVM;
        private Jmx.Mode jmx = Jmx.Mode.WHEN_SERVER_EXISTS;

        private Builder() {}

        /**
         * The pool's name, in budgets, statistics, JMX and the spill file's name: non-blank, without
         * {@code '/'} (budget paths use it). Default {@code chunk-pool-N}, N counting the pools built.
         *
         * @param name the name
         * @return this builder
         * @throws NullPointerException     if {@code name} is null
         * @throws IllegalArgumentException if {@code name} is blank or contains {@code '/'}
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
         * by default ({@code vm.max_map_count}), half of which the pools and mapped arrays of the JVM may use
         * together: 128 GiB of 4 MiB chunks.
         *
         * <p>Unless set, the chunk size adapts to the limits: {@link #build()} lowers it to fit a memory
         * limit, spill limit or budget smaller than a chunk, and raises it when a memory limit would need
         * more mappings than the pool may hold. Once set, a limit that does not fit it is an error saying
         * what to set.
         *
         * @param bytes the chunk size
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is not a power of two from 64 KiB to 1 GiB
         */
        public Builder chunkSize(long bytes) {
            if (bytes < ChunkPoolSettings.MIN_CHUNK_SIZE || bytes > ChunkPoolSettings.MAX_CHUNK_SIZE
                    || Long.bitCount(bytes) != 1) {
                throw new IllegalArgumentException("chunk size must be a power of two from 64 KiB to 1 GiB: " + bytes);
            }
            this.chunkSize = bytes;
            this.chunkSizeSet = true;
            return this;
        }

        /**
         * The budget memory chunks are charged to; {@link #memoryLimit} adds a child of it. A budget whose
         * limit (or an ancestor's) is below one chunk lowers the chunk size unless it was set. Default: a root
         * budget of the pool's own.
         *
         * @param budget the parent budget, which the pool never closes
         * @return this builder
         * @throws NullPointerException if {@code budget} is null
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
         *
         * @param bytes the limit, {@code MemoryBudget.UNLIMITED} for none
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
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
         *
         * @param directory an existing directory (or a link to one), or one {@link #build()} finds made by
         *                  then: the pool never creates it, so that a mistyped path is an error, not a new
         *                  directory on whichever disk it names
         * @return this builder
         * @throws NullPointerException if {@code directory} is null
         */
        public Builder spillDirectory(Path directory) {
            this.spillDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * The most bytes of spill file; needs a {@link #spillDirectory}. Default: no limit but the disk's.
         *
         * @param bytes the limit, {@code MemoryBudget.UNLIMITED} for none
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder spillLimit(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("spill limit must be >= 0: " + bytes);
            }
            this.spillLimit = bytes;
            return this;
        }

        /**
         * Whether and when the pool shows in JMX as {@code dev.offheap:type=ChunkPool,name=<name>} (with a suffix
         * {@code -2}, {@code -3}... if the name is taken), and its budgets as
         * {@code dev.offheap:type=MemoryBudget,name=<path>}, until close. By default (this method not called)
         * it registers once the JVM's platform {@code MBeanServer} exists: at once if something made it already
         * (a JMX agent, a framework, the application), else within a quarter of a second of its making (one
         * daemon thread, {@code offheap-jmx-wait}, looks while pools wait), so that a JVM that never uses JMX
         * never loads the JDK's JMX implementation for offheap (about 500 classes, 2 MB of metaspace on JDK 25).
         * {@code true} registers at once, making the platform {@code MBeanServer} if need be; {@code false}
         * never.
         *
         * @param register whether to register the MXBeans at once ({@code true}) or never ({@code false})
         * @return this builder
         */
        public Builder jmx(boolean register) {
            this.jmx = register ? Jmx.Mode.AT_ONCE : Jmx.Mode.OFF;
            return this;
        }

        /**
         * The budget the spill file's chunks charge, in bytes of disk; {@link #spillLimit} adds a child of it
         * named {@code <name>-spill}. Default: a root of the pool's own named {@code <name>-spill}. Spill
         * chunks live in the page cache and on disk, not in the process's memory, so they are never charged
         * to the memory {@link #budget}: give this a budget of a tree that counts disk space.
         *
         * @param budget the parent budget for spill chunks, which the pool never closes
         * @return this builder
         * @throws NullPointerException if {@code budget} is null
         */
        public Builder spillBudget(MemoryBudget budget) {
            this.spillBudget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /** Tests: fewer mappings than half of {@code vm.max_map_count}, to reach the limit cheaply. */
        Builder mappingLimit(long mappings) {
            this.mappingLimit = mappings;
            return this;
        }

        /** Tests: a budget in place of the JVM's for the pool's mappings, to reach its limit cheaply. */
        Builder jvmMappings(MappingBudget jvm) {
            this.jvmMappings = jvm;
            return this;
        }

        /** Tests: the portable path (separate chunk segments), which other platforms use. */
        Builder portable(boolean portable) {
            this.portable = portable;
            return this;
        }

        /**
         * Builds the pool: checks that the settings fit together, fits the chunk size, makes the budgets and
         * (with a spill directory) the spill file, and registers the MXBeans.
         *
         * @return the new pool, to close after use
         * @throws IllegalArgumentException if settings do not fit together (the message says what to set), or
         *                                  the spill directory does not exist or is not a directory
         * @throws UncheckedIOException if the spill file cannot be created
         */
        public ChunkPool build() {
            String name = this.name != null ? this.name : "chunk-pool-" + POOL_NUMBER.incrementAndGet();
            if (spillDirectory != null) {
                checkSpillDirectory(spillDirectory);
            }
            ChunkPoolSettings settings = new ChunkPoolSettings(name, chunkSize, chunkSizeSet, budget, memoryLimit,
                    spillDirectory, spillLimit, spillBudget, ArrayLayout.contiguousFor(portable), mappingLimit,
                    jvmMappings, jmx)
                    .fit();
            try {
                return new ChunkPool(settings);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the spill file of pool '" + name + "' in "
                        + spillDirectory + ": " + e.getMessage(), e);
            }
        }

        private static void checkSpillDirectory(Path directory) {
            if (Files.isDirectory(directory)) {
                return;
            }
            throw new IllegalArgumentException("spill directory " + directory + (Files.exists(directory)
                    ? " is not a directory" : " does not exist: create it first (the pool never creates it)"));
        }
    }
}
