package dev.offheap.store;

import dev.offheap.account.BudgetOwner;
import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.jfr.ChunkAllocated;
import dev.offheap.metrics.jfr.ChunkReleased;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Where chunks come from: memory or a spill file. On Linux, movable anonymous blocks ({@link MovableChunks})
 * and an unlinked file ({@link FileChunks}); elsewhere portable Java APIs ({@link ArenaChunks},
 * {@link ChannelChunks}). Every chunk is charged to the source's budget, through the source's owner, while
 * it has space behind it ("backed"), whether an array holds it or it waits in the free list for the next
 * array; {@link #trim()} gives the space of free chunks back and releases their charge.
 *
 * <p>Free chunks are reused last-in first-out, backed ones before holes, so a steady workload keeps reusing
 * the same memory. Allocation is rare and coarse (whole chunks for whole arrays), so a lock suffices; the
 * budget is charged outside it, because a refusal runs reclaimers, which may trim this very source.
 */
abstract sealed class ChunkSource implements AutoCloseable permits MovableChunks, FileChunks, ArenaChunks, ChannelChunks {
    final long chunkSize;
    final String name;
    private final BudgetOwner account;
    private final ArrayDeque<Chunk> backed = new ArrayDeque<>();
    private final ArrayDeque<Chunk> holes = new ArrayDeque<>();
    private long created;
    private long inUse;
    private long peakBacked;
    private boolean closed;
    /** The pool's name, for events; set by the pool before it is shared. */
    String pool = "";

    ChunkSource(String name, long chunkSize, BudgetOwner account) {
        this.name = name;
        this.chunkSize = chunkSize;
        this.account = account;
    }

    MemoryBudget budget() {
        return account.budget();
    }

    /**
     * A chunk for an array, or null when the budget refuses one more.
     *
     * @throws IOException if the space cannot be reserved (a full disk)
     */
    final Chunk take() throws IOException {
        Chunk chunk = takeBacked();
        if (chunk != null) {
            return chunk;
        }
        if (!account.tryCharge(chunkSize)) {
            return null;
        }
        return backNew();
    }

    private synchronized Chunk takeBacked() {
        checkOpen();
        Chunk chunk = backed.poll();
        if (chunk != null) {
            inUse++;
        }
        return chunk;
    }

    /** A hole or a new chunk with space behind it, for a chunk already charged. */
    private synchronized Chunk backNew() throws IOException {
        Chunk chunk = null;
        boolean fresh = false;
        try {
            checkOpen();
            chunk = holes.poll();
            fresh = chunk == null;
            if (fresh) {
                chunk = new Chunk(this, created * chunkSize);
                extendTo((created + 1) * chunkSize);
            }
            back(chunk);
        } catch (IOException | RuntimeException | Error e) {
            account.release(chunkSize);
            if (chunk != null && !fresh) {
                holes.push(chunk);
            }
            throw e;
        }
        if (fresh) {
            created++;
        }
        inUse++;
        peakBacked = Math.max(peakBacked, inUse + backed.size());
        ChunkAllocated.emit(pool, name, chunkSize);
        return chunk;
    }

    /** Takes a chunk back from an array (or from an allocation that failed half way). */
    final synchronized void give(Chunk chunk) {
        inUse--;
        if (closed) {
            return;
        }
        backed.push(chunk);
    }

    /** Gives the space of every free backed chunk back to the OS; returns the bytes given back. */
    final synchronized long trim() {
        if (closed || !canTrim()) {
            return 0;
        }
        long bytes = 0;
        Chunk chunk;
        while ((chunk = backed.poll()) != null) {
            unback(chunk);
            chunk.zero = true;
            holes.push(chunk);
            account.release(chunkSize);
            bytes += chunkSize;
            ChunkReleased.emit(pool, name, chunkSize);
        }
        return bytes;
    }

    final synchronized ChunkStats stats() {
        return new ChunkStats(name, chunkSize, created, inUse, backed.size(), holes.size(), budget().used(),
                budget().limit(), peakBacked);
    }

    /** Frees everything. Arrays still holding chunks must have been closed before. */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long charged = (created - holes.size()) * chunkSize;
        for (Chunk chunk : backed) {
            release(chunk);
            ChunkReleased.emit(pool, name, chunkSize);
        }
        backed.clear();
        holes.clear();
        account.release(charged);
        account.close();
        closeSource();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("chunk source '" + name + "' is closed");
        }
    }

    /**
     * Makes a taken chunk read as zeros without writing it, where the source can: true if done, false if
     * the caller must fill it with zeros through its mapping.
     *
     * @throws IOException if the space given back to clear it cannot be reserved again (a full disk)
     */
    abstract boolean clear(Chunk chunk) throws IOException;

    /** Makes the source big enough for a new chunk ending at {@code size}. */
    abstract void extendTo(long size) throws IOException;

    /** Puts space behind a chunk that has none (new, or trimmed). */
    abstract void back(Chunk chunk) throws IOException;

    /** Takes the space from behind a free chunk; it reads as zeros if backed again. */
    abstract void unback(Chunk chunk);

    /** Whether {@link #unback} can give space back on this source. */
    abstract boolean canTrim();

    /** The chunk's memory as a segment of {@code arena} (the portable path; Linux maps into one range). */
    abstract MemorySegment view(Chunk chunk, Arena arena) throws IOException;

    /** Frees one backed chunk at close. */
    abstract void release(Chunk chunk);

    abstract void closeSource();
}
