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
import dev.offheap.metrics.jfr.JfrEvents;
import java.io.IOException;
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
 *
 * <p>A request takes in steps that can each be undone exactly ({@link #takeFree}, {@link #charge} or
 * {@link #chargeAsManyAs}, {@link #backNew}), so that one failing half way leaves the source and its budget as
 * they were. A refusal is the source's own: its budget's {@link BudgetExceededException}, from its one charge
 * of the request's new chunks ({@link #charge}), or from the limits before anything is taken
 * ({@link #refuseBeyondLimits}).
 *
 * <p>How its chunks become an array's memory is the source's kind: {@link PlacedChunks} are put in place in a
 * range of addresses per array (the contiguous layout, Linux), {@link ViewedChunks} are seen through a segment
 * each (the scattered layout). Each {@link ArrayLayout} makes sources of its own kind only.
 */
abstract sealed class ChunkSource implements AutoCloseable permits PlacedChunks, ViewedChunks {
    final long chunkSize;
    final String name;
    private final BudgetOwner account;
    private final ArrayDeque<Chunk> backed = new ArrayDeque<>();
    private final ArrayDeque<Chunk> holes = new ArrayDeque<>();
    private long created;
    private long inUse;
    private long peakBacked;
    private boolean closed;
    /** The pool's name, for events. */
    private final String pool;

    ChunkSource(String pool, String name, long chunkSize, BudgetOwner account) {
        this.pool = pool;
        this.name = name;
        this.chunkSize = chunkSize;
        this.account = account;
    }

    MemoryBudget budget() {
        return account.budget();
    }

    /** Free chunks with space behind them, waiting for the next array. */
    final synchronized int freeCount() {
        return backed.size();
    }

    /**
     * Takes up to {@code max} free chunks with space behind them (already charged) into {@code chunks[at..]},
     * last freed first; returns how many. {@link #giveBack} undoes it exactly.
     */
    final synchronized int takeFree(Chunk[] chunks, int at, int max) {
        checkOpen();
        int taken = 0;
        Chunk chunk;
        while (taken < max && (chunk = backed.poll()) != null) {
            chunks[at + taken++] = chunk;
        }
        inUse += taken;
        return taken;
    }

    /**
     * Refuses, before anything is taken, {@code count} chunks more than the limits of this source's budget
     * and its ancestors can ever hold, whatever is freed: the tightest level's figures, nothing charged.
     */
    final void refuseBeyondLimits(long count) {
        MemoryBudget tightest = tightestLevel(budget());
        if (count > tightest.limit() / chunkSize) {
            throw new BudgetExceededException(tightest.path(), count * chunkSize, tightest.used(), tightest.limit());
        }
    }

    /** The most chunks the limits of this source's budget and its ancestors can hold. */
    final long chunksWithinLimits() {
        return tightestLevel(budget()).limit() / chunkSize;
    }

    /** The chunks the budget has room for now, without reclaiming. */
    final long chunksAvailable() {
        return budget().available() / chunkSize;
    }

    /** The level of {@code budget} or its ancestors with the smallest limit. */
    static MemoryBudget tightestLevel(MemoryBudget budget) {
        MemoryBudget tightest = budget;
        for (MemoryBudget level = budget; level != null; level = level.parent().orElse(null)) {
            if (level.limit() < tightest.limit()) {
                tightest = level;
            }
        }
        return tightest;
    }

    /**
     * Charges {@code count} new chunks to the source's budget, whose reclaimers run if it refuses; false if
     * it still refuses (nothing charged). Called outside the source's lock: a reclaimer may trim this source.
     */
    final boolean tryCharge(int count) {
        return count == 0 || account.tryCharge(count * chunkSize);
    }

    /**
     * Charges {@code count} new chunks at once. A refusal is the budget's own
     * {@link BudgetExceededException}, thrown by this one charge after its reclaimers ran once; nothing is
     * charged then. Called outside the source's lock: a reclaimer may trim this source.
     */
    final void charge(int count) {
        if (count > 0) {
            account.charge(count * chunkSize);
        }
    }

    /**
     * Charges as many of {@code wanted} new chunks as the budget allows (the rest go elsewhere: a spill
     * file): all at once, up to what its limits hold, if it accepts, else, once its reclaimers ran, the room
     * it has left. Returns how many were charged. Called outside the source's lock: a reclaimer may trim
     * this source.
     */
    final int chargeAsManyAs(int wanted) {
        // More than the limits hold is refused without asking the reclaimers, who may make room for this much.
        int most = (int) Math.min(wanted, chunksWithinLimits());
        if (tryCharge(most)) {
            return most;
        }
        int room = (int) Math.min(most, chunksAvailable());
        while (room > 0 && !tryCharge(room)) { // only another thread taking the room meanwhile fails it
            room = (int) Math.min(room - 1, chunksAvailable());
        }
        return Math.max(0, room);
    }

    /** Gives back the charge of {@code count} chunks charged with {@link #tryCharge} and never backed. */
    final void uncharge(int count) {
        if (count > 0) {
            account.release(count * chunkSize);
        }
    }

    /**
     * Puts space behind {@code count} chunks already charged, holes first, then new ones, into
     * {@code chunks[at..]}. All or nothing: if one fails (a full disk, no mapping left), those backed so
     * far lose their space again, holes go back to the holes, the new ones are forgotten and the charge of
     * all {@code count} is released before the exception goes on.
     *
     * @return the offset of the first new chunk: chunks at or above it were created for this request
     * @throws IOException if space cannot be reserved (a full disk)
     */
    final synchronized long backNew(Chunk[] chunks, int at, int count) throws IOException {
        long firstNew = created * chunkSize;
        int fresh = 0;
        int done = 0;
        Chunk failedHole = null;
        try {
            checkOpen();
            for (; done < count; done++) {
                Chunk chunk = holes.poll();
                if (chunk == null) {
                    chunk = new Chunk(this, firstNew + fresh * chunkSize);
                    fresh++;
                    extendTo(chunk.offset + chunkSize);
                } else {
                    failedHole = chunk;
                }
                back(chunk);
                failedHole = null;
                chunks[at + done] = chunk;
            }
        } catch (IOException | RuntimeException | Error e) {
            try {
                if (failedHole != null) {
                    holes.push(failedHole);
                }
                dropNew(chunks, at, at + done, firstNew, fresh);
            } catch (RuntimeException | Error undo) {
                e.addSuppressed(undo);
            } finally {
                account.release(count * chunkSize);
            }
            throw e;
        }
        created += fresh;
        inUse += count;
        peakBacked = Math.max(peakBacked, inUse + backed.size());
        for (int i = 0; i < count; i++) {
            JfrEvents.chunkAllocated(pool, name, chunkSize);
        }
        return firstNew;
    }

    /**
     * Takes the space back from chunks {@link #backNew} backed for a request that then failed, and releases
     * their charge: the source is as before the request (unless other requests created chunks since, then
     * the new ones become holes; or, where space cannot be given back, free chunks).
     */
    final synchronized void giveBackNew(Chunk[] chunks, int from, int to, long firstNew) {
        inUse -= to - from;
        if (closed) {
            return; // close() released every charge and the space with the source
        }
        int fresh = 0;
        for (int i = from; i < to; i++) {
            if (chunks[i].offset >= firstNew) {
                fresh++;
            }
        }
        boolean last = firstNew + fresh * chunkSize == created * chunkSize;
        int released = 0;
        for (int i = to - 1; i >= from; i--) {
            Chunk chunk = chunks[i];
            if (last && chunk.offset >= firstNew) {
                forgetNew(chunk);
                released++;
            } else if (unback(chunk)) {
                holes.push(chunk);
                released++;
            } else {
                backed.push(chunk); // no way to give its space back: a free chunk, still charged
            }
        }
        if (last && fresh > 0) {
            created -= fresh;
            abandonFrom(firstNew);
        }
        account.release(released * chunkSize);
    }

    /** Takes the space from the new chunks among {@code chunks[from, to)} and anything after {@code firstNew}. */
    private void dropNew(Chunk[] chunks, int from, int to, long firstNew, int fresh) {
        for (int i = to - 1; i >= from; i--) {
            Chunk chunk = chunks[i];
            if (chunk.offset < firstNew) {
                unback(chunk); // a hole backed again: only a source that gives space back has holes
                holes.push(chunk);
            } else {
                forgetNew(chunk);
            }
        }
        if (fresh > 0) {
            abandonFrom(firstNew);
        }
    }

    /** Gives back chunks taken with {@link #takeFree} and not used, in reverse so the free list is as before. */
    final synchronized void giveBack(Chunk[] chunks, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (chunks[i] != null) {
                give(chunks[i]);
            }
        }
    }

    /**
     * Clears the taken chunks of {@code chunks[from, to)} that held data, where the source can without
     * writing; those that cannot are left for the caller to fill. A chunk whose space was given back to clear
     * it but cannot be reserved again (a full disk) becomes a hole, uncharged, and its place a null.
     *
     * @throws IOException if a chunk's space could not be reserved again
     */
    final void clearTaken(Chunk[] chunks, int from, int to) throws IOException {
        for (int i = from; i < to; i++) {
            Chunk chunk = chunks[i];
            try {
                if (!chunk.readsAsZero() && clear(chunk)) {
                    chunk.cleared();
                }
            } catch (IOException e) {
                chunks[i] = null;
                lost(chunk);
                throw e;
            }
        }
    }

    private synchronized void lost(Chunk chunk) {
        inUse--;
        if (closed) {
            return;
        }
        chunk.cleared(); // its space was punched to clear it and could not be reserved again
        holes.push(chunk);
        account.release(chunkSize);
        JfrEvents.chunkReleased(pool, name, chunkSize);
    }

    /** Takes a chunk back from an array that ended: it may hold the array's data. */
    final synchronized void giveFromArray(Chunk chunk) {
        chunk.used();
        give(chunk);
    }

    /** Takes a chunk back from an array (or from an allocation that failed half way). */
    final synchronized void give(Chunk chunk) {
        inUse--;
        if (closed) {
            release(chunk); // an array that outlived the source's close: its charge went at close
            return;
        }
        backed.push(chunk);
    }

    /** Gives the space of every free backed chunk back to the OS; returns the bytes given back. */
    final synchronized long trim() {
        if (closed) {
            return 0;
        }
        long bytes = 0;
        Chunk chunk;
        // A chunk whose space is not given back (a source that cannot, or a call that throws) stays free, charged.
        while ((chunk = backed.peek()) != null && unback(chunk)) {
            backed.poll();
            holes.push(chunk);
            account.release(chunkSize);
            bytes += chunkSize;
            JfrEvents.chunkReleased(pool, name, chunkSize);
        }
        return bytes;
    }

    final synchronized ChunkSourceStats stats() {
        return new ChunkSourceStats(name, chunkSize, created, inUse, backed.size(), holes.size(), account.outstanding(),
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
        RuntimeException refused = null;
        for (Chunk chunk : backed) {
            try {
                release(chunk);
                JfrEvents.chunkReleased(pool, name, chunkSize);
            } catch (RuntimeException e) { // the OS kept that chunk's space (recorded as the pool's): free the rest
                if (refused == null) {
                    refused = e;
                } else {
                    refused.addSuppressed(e);
                }
            }
        }
        backed.clear();
        holes.clear();
        account.release(charged);
        account.close();
        closeSource();
        if (refused != null) {
            throw refused;
        }
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

    /**
     * Takes the space from behind a free chunk ({@link Chunk#unbacked}), where the source can: true if done (it
     * reads as zeros if backed again), false if the source cannot give space back (the chunk keeps it).
     */
    abstract boolean unback(Chunk chunk);

    /** Frees one backed chunk at close. */
    abstract void release(Chunk chunk);

    /** Frees a chunk created for a request that failed (only memory blocks hold space of their own). */
    void forgetNew(Chunk chunk) {
        unback(chunk);
    }

    /** Gives back the space of every chunk from {@code offset} on: new chunks of a request that failed. */
    void abandonFrom(long offset) {
        // Memory blocks are freed one by one by forgetNew.
    }

    abstract void closeSource();
}
