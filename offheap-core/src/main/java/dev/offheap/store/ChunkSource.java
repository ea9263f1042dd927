package dev.offheap.store;

import dev.offheap.account.MemoryBudget;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Where chunks come from: memory or a spill file. On Linux, movable anonymous blocks ({@link MovableChunks})
 * and an unlinked file ({@link FileChunks}); elsewhere portable Java APIs ({@link ArenaChunks},
 * {@link ChannelChunks}). Every chunk is charged to the source's budget while
 * it has space behind it ("backed"), whether an array holds it or it waits in the free list for the next
 * array; {@link #trim()} gives the space of free chunks back and releases their charge.
 *
 * <p>Free chunks are reused last-in first-out, backed ones before holes, so a steady workload keeps reusing
 * the same memory. Allocation is rare and coarse (whole chunks for whole arrays), so a lock suffices.
 */
abstract sealed class ChunkSource implements AutoCloseable permits MovableChunks, FileChunks, ArenaChunks, ChannelChunks {
    final long chunkSize;
    final String name;
    private final MemoryBudget budget;
    private final ArrayDeque<Chunk> backed = new ArrayDeque<>();
    private final ArrayDeque<Chunk> holes = new ArrayDeque<>();
    private long created;
    private long inUse;
    private boolean closed;

    ChunkSource(String name, long chunkSize, MemoryBudget budget) {
        this.name = name;
        this.chunkSize = chunkSize;
        this.budget = budget;
    }

    MemoryBudget budget() {
        return budget;
    }

    /**
     * A chunk for an array, or null when the budget refuses one more.
     *
     * @throws IOException if the space cannot be reserved (a full disk)
     */
    final synchronized Chunk take() throws IOException {
        if (closed) {
            throw new IllegalStateException("chunk source '" + name + "' is closed");
        }
        Chunk chunk = backed.poll();
        if (chunk != null) {
            inUse++;
            return chunk;
        }
        if (!budget.tryCharge(chunkSize)) {
            return null;
        }
        chunk = holes.poll();
        boolean fresh = chunk == null;
        try {
            if (fresh) {
                chunk = new Chunk(this, created * chunkSize);
                extendTo((created + 1) * chunkSize);
            }
            back(chunk);
        } catch (IOException | RuntimeException | Error e) {
            budget.release(chunkSize);
            if (!fresh) {
                holes.push(chunk);
            }
            throw e;
        }
        if (fresh) {
            created++;
        }
        inUse++;
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
            budget.release(chunkSize);
            bytes += chunkSize;
        }
        return bytes;
    }

    final synchronized ChunkStats stats() {
        return new ChunkStats(name, chunkSize, created, inUse, backed.size(), holes.size(), budget.used(),
                budget.limit());
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
        }
        backed.clear();
        holes.clear();
        budget.release(charged);
        closeSource();
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
