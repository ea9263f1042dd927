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

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The memory behind one array: a shared arena of its own, and the segments that arena hands out. Either one
 * contiguous segment ({@code whole}, with {@code chunks} as slices of it) or, on the portable path, separate
 * chunk segments ({@code whole == null}). Closing the arena ends every segment at once, for every thread,
 * before {@code afterClose} gives the chunks back to their owner: a stale reference throws, it never reads
 * memory lent to another array. The owner (a pool, a file) is named in the arrays' messages.
 */
final class ArrayMemory {
    private final Arena arena;
    private final MemorySegment whole;
    private final MemorySegment[] chunks;
    private final int chunkShift;
    private final long byteSize;
    private final Consumer<ArrayMemory> afterClose;
    private final FileView file;
    private final AtomicBoolean closed = new AtomicBoolean();
    /**
     * Held while the memory ends: a close that finds another one ending it (the owner's last release racing
     * its pool's or file's close) waits until the memory is back, so that the pool or file never returns from
     * its close with an array of its own still mapped, in use or charged.
     */
    private final Object ending = new Object();
    private final String owner;
    private volatile boolean closedByOwner;

    ArrayMemory(Arena arena, MemorySegment whole, MemorySegment[] chunks, int chunkShift, long byteSize,
            Consumer<ArrayMemory> afterClose) {
        this("", arena, whole, chunks, chunkShift, byteSize, afterClose, null);
    }

    /** {@code owner} describes who made the memory, for messages: {@code chunk pool 'samples'}. */
    ArrayMemory(String owner, Arena arena, MemorySegment whole, MemorySegment[] chunks, int chunkShift,
            long byteSize, Consumer<ArrayMemory> afterClose) {
        this(owner, arena, whole, chunks, chunkShift, byteSize, afterClose, null);
    }

    /** Memory that maps a file others can change ({@link MappedArray}): {@code file} explains what goes wrong. */
    ArrayMemory(Arena arena, MemorySegment whole, MemorySegment[] chunks, int chunkShift, long byteSize,
            Consumer<ArrayMemory> afterClose, FileView file) {
        this("", arena, whole, chunks, chunkShift, byteSize, afterClose, file);
    }

    private ArrayMemory(String owner, Arena arena, MemorySegment whole, MemorySegment[] chunks, int chunkShift,
            long byteSize, Consumer<ArrayMemory> afterClose, FileView file) {
        this.owner = owner;
        this.file = file;
        this.arena = arena;
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

    boolean isAlive() {
        return !closed.get();
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

    /** Whether the memory ended because its owner closed, not because the array was released. */
    boolean closedByOwner() {
        return closedByOwner;
    }

    /**
     * Ends every segment (a handshake with all threads), then gives the memory back. Only the first call
     * that succeeds does anything and returns true: the owner's last release and its pool's close may race.
     * A call made while another is ending the memory returns false once that one is done: the memory is back.
     *
     * @throws IllegalStateException if a native call or an I/O operation still uses a segment (the arena
     *         is acquired): nothing changed, the memory stays alive and a later close can end it
     */
    boolean close() {
        synchronized (ending) {
            if (!closed.compareAndSet(false, true)) {
                return false;
            }
            try {
                closeArena();
            } catch (IllegalStateException acquired) {
                closed.set(false);
                throw acquired;
            }
            afterClose.accept(this);
            return true;
        }
    }

    private void closeArena() {
        if (file == null) {
            arena.close();
            return;
        }
        synchronized (file.endLock()) {
            arena.close();
        }
    }

    /** {@link #close()} by the owner (the pool or file closing): the arrays say so when used afterwards. */
    void closeByOwner() {
        synchronized (ending) { // a release ending the memory meanwhile keeps its own message
            if (isAlive()) {
                closedByOwner = true;
            }
            try {
                close();
            } catch (IllegalStateException acquired) {
                closedByOwner = false;
                throw acquired;
            }
        }
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
         * The lock a view's arena is closed under. {@link MappedArray#force()} holds it while it forces the
         * views: a view's arena closed during its force would make the JDK throw an error asynchronously into the
         * forcing thread, wherever it is at that moment (even inside a class initializer of the JDK's own).
         */
        Object endLock();
    }
}
