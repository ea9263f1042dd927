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

import dev.offheap.os.Grace;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * The memory behind one array: a shared arena of its own, and the segments that arena hands out. Either one
 * contiguous segment ({@code whole}, with {@code chunks} as slices of it) or, on the portable path, separate
 * chunk segments ({@code whole == null}). Ending the array closes the arena ({@link Grace#endViews}), which
 * ends every segment at once, for every thread; then one more handshake passes (the {@link Grace} of
 * JDK-8364167: an access straggling past the first one lands in this array's memory, still mapped, never in
 * another's), and only then does {@code afterClose} unmap what the array mapped and give the chunks back to
 * their owner: a stale reference throws, it never reads memory lent to another array. The owner (a pool, a
 * file) is named in the arrays' messages.
 *
 * <p>While an I/O operation or native call holds one of the segments the JDK refuses to close the arena: then
 * nothing changes, and the memory stays mapped and charged. A last release says so and keeps the array; an
 * owner's close quarantines it ({@link #closeByOwner}): the array refuses every use, and the owner's next close
 * tries again.
 */
final class ArrayMemory {
    /** The array works. */
    private static final int LIVE = 0;
    /** Its owner closed while a view was held: the array refuses every use, its memory stays until it ends. */
    private static final int QUARANTINED = 1;
    /** Its views have ended and its memory went back (or is going back, under {@code ending}). */
    private static final int ENDED = 2;

    private final Arena views;
    /**
     * The arena the views are made over when the array maps pieces of a file itself ({@code FileChannel.map}):
     * never handed out, closed right after the views, so that its handshake is their grace and its unmapping
     * comes after it. Null when the views need no mapping of their own.
     */
    private final Arena mappings;
    private final MemorySegment whole;
    private final MemorySegment[] chunks;
    private final int chunkShift;
    private final long byteSize;
    private final Consumer<ArrayMemory> afterClose;
    private final FileView file;
    /** {@link #LIVE}, {@link #QUARANTINED} or {@link #ENDED}; changed under {@code ending}. */
    private volatile int state = LIVE;
    /**
     * Held while the memory ends: a close that finds another one ending it (the owner's last release racing
     * its pool's or file's close) waits until the memory is back, so that the pool or file never returns from
     * its close with an array of its own still mapped, in use or charged.
     */
    private final Object ending = new Object();
    private final String owner;
    private volatile boolean closedByOwner;
    /** The one array handed out over this memory; guarded by {@code ending}. */
    private TypedArray handle;

    /**
     * {@code owner} describes who made the memory, for messages ({@code chunk pool 'samples'}), or is empty;
     * {@code mappings} is null unless the views are made over mappings of their own; {@code file} is null
     * unless the memory maps a file others can change ({@link MappedArray}), which then explains what goes wrong.
     */
    ArrayMemory(String owner, Arena views, Arena mappings, MemorySegment whole, MemorySegment[] chunks,
            int chunkShift, long byteSize, Consumer<ArrayMemory> afterClose, FileView file) {
        this.owner = owner;
        this.file = file;
        this.views = views;
        this.mappings = mappings;
        this.whole = whole;
        this.chunks = chunks;
        this.chunkShift = chunkShift;
        this.byteSize = byteSize;
        this.afterClose = afterClose;
    }

    /** One segment over the whole array, or null when the chunks are scattered. */
    MemorySegment whole() {
        return whole;
    }

    /** The chunks in order; each is {@code 1 << chunkShift} bytes but the last may be shorter. */
    MemorySegment[] chunks() {
        return chunks;
    }

    int chunkShift() {
        return chunkShift;
    }

    long byteSize() {
        return byteSize;
    }

    /** Whether the array works: neither ended nor quarantined by its owner's close. */
    boolean isAlive() {
        return state == LIVE;
    }

    /** Whether the segments are still usable: false from the moment an end closes them, before it returns. */
    boolean viewsOpen() {
        return views.scope().isAlive();
    }

    /** Whether the owner's close left the memory mapped and charged because a view is held. */
    boolean isQuarantined() {
        return state == QUARANTINED;
    }

    /** The file this memory maps, if others can change it; null for a pool's chunks. */
    FileView file() {
        return file;
    }

    /**
     * Makes the JDK throw, here, the fault it noted without throwing: in compiled code a fault (a SIGBUS: the
     * file was truncated) is reported asynchronously, at the thread's next call into the VM or safepoint poll,
     * which may lie outside the caller's {@code catch}. {@code Thread.holdsLock} is such a call, and cheap.
     * Only for file memory: a pool's chunks cannot fault.
     */
    void deliverPendingFault() {
        if (file != null) {
            Thread.holdsLock(file);
        }
    }

    String owner() {
        return owner;
    }

    /** Whether the memory ended, or was quarantined, because its owner closed, not because the array was released. */
    boolean closedByOwner() {
        return closedByOwner;
    }

    /** The array made over this memory, which a quarantine cuts off from it. */
    void handedOutAs(TypedArray array) {
        synchronized (ending) {
            handle = array;
            if (state == QUARANTINED) {
                array.cutOff();
            }
        }
    }

    /** The array made over this memory, for messages; null until it is made. */
    TypedArray handle() {
        synchronized (ending) {
            return handle;
        }
    }

    /** What {@link #close()} did. */
    enum Ending {
        /** This call ended the memory: it is back. */
        ENDED,
        /** Nothing to do: ended before, or quarantined by its owner's close, which ends it. */
        NOT_LIVE,
        /** An I/O operation or native call holds a view: nothing changed, the memory stays alive. */
        HELD
    }

    /**
     * The last release: ends every segment, then gives the memory back after its grace. A call made while
     * another is ending the memory returns once that one is done: the memory is back.
     */
    Ending close() {
        synchronized (ending) {
            if (state != LIVE) {
                return Ending.NOT_LIVE;
            }
            return end() ? Ending.ENDED : Ending.HELD;
        }
    }

    /**
     * The owner (the pool or file) closing: ends the memory as {@link #close()} does, and the array says from
     * now on that its owner is closed. True once the memory is back, by this call or before; false if a view is
     * held: then the memory stays mapped and charged, quarantined (the array refuses every use, its get and set
     * too), until a later call ends it.
     */
    boolean closeByOwner() {
        synchronized (ending) {
            if (state == ENDED) {
                return true;
            }
            closedByOwner = true;
            if (end()) {
                return true;
            }
            if (state == LIVE) {
                state = QUARANTINED;
                if (handle != null) {
                    handle.cutOff();
                }
            }
            return false;
        }
    }

    /**
     * Ends the views; false, with nothing changed, if one is held. Then waits for one more handshake (closing
     * the mappings, whose handshake it is, or {@link Grace#await()} unless another thread's passed meanwhile)
     * and gives the memory back. A view of a file ends under its {@link FileView#endLock()}.
     */
    private boolean end() {
        synchronized (file == null ? ending : file.endLock()) {
            if (!Grace.endViews(views)) {
                return false;
            }
            state = ENDED;
            long ended = Grace.ticket();
            if (mappings != null) {
                if (!Grace.endViews(mappings)) {
                    throw new IllegalStateException("the mappings under the views of " + owner + " are held");
                }
            } else if (!Grace.passed(ended)) {
                Grace.await();
            }
        }
        afterClose.accept(this);
        return true;
    }

    /** What a view of a file knows about the file, to explain an access that fails. */
    interface FileView {
        /** The exception for {@code fault} at element {@code index}, or null if the file does not explain it. */
        RuntimeException explainFault(InternalError fault, long index);

        /** The exception for a view used after it was closed, naming the file. */
        IllegalStateException closed(IllegalStateException cause);

        /**
         * The exception for a write the JDK refused ({@code cause}) because the view is read-only, naming the
         * file: {@code "cannot " + operation + " <file>: ..."}.
         */
        IllegalArgumentException readOnly(String operation, IllegalArgumentException cause);

        /**
         * The lock a view's arenas are closed under. {@link MappedArray#force()} holds it while it forces the
         * views' mappings: a mapping's arena closed during its force would make the JDK throw an error
         * asynchronously into the forcing thread, wherever it is at that moment (even inside a class initializer
         * of the JDK's own).
         */
        Object endLock();
    }
}
