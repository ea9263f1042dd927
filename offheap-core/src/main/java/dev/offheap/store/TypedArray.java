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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.account.RefCounted;
import dev.offheap.os.Views;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Optional;

/**
 * An array of primitive elements in native memory, of any length up to {@code Long.MAX_VALUE} bytes, in
 * native byte order. Every index is checked: a bad one throws {@link IndexOutOfBoundsException}.
 *
 * <p>Arrays are reference counted like pool buffers: {@link #retain()} adds an owner, {@link #release()} or
 * {@link #close()} drops one, and the last release gives the memory back at once. After that, or once the
 * pool (or file) that made the array is closed, the array is a dead handle: every method but
 * {@link #refCount()}, {@link #elementType()} and {@code toString()} throws {@link IllegalStateException}
 * naming the pool and the array's length, and so does every access through a segment it handed out. A dead
 * handle never reaches the memory of a later array, even one made of the same chunks: each array's segments
 * belong to an arena of its own, closed (with a handshake with every thread) before its chunks are reused.
 * The one exception: an owner's {@link #release()} of an array its pool already closed does nothing and
 * returns false, so that closing the pool before its arrays is no error.
 *
 * <p><b>I/O in progress.</b> While an I/O operation or native call holds one of the array's segments (a
 * {@code ByteBuffer} of it in a channel's read or write, a segment passed to a downcall) the JDK refuses to
 * end them, and offheap never frees or reuses memory whose segments could not end. The last
 * {@link #release()} then throws {@link MemoryInUseException} and changes nothing: release again once the
 * operation has ended. Its pool's (or file's) {@code close()} quarantines the array instead: its memory stays
 * mapped and charged (a pool counts it in {@code stats().bytesQuarantined()}), the operation goes on into it,
 * and the array is dead to its handle: every method but {@link #refCount()}, {@link #elementType()},
 * {@code toString()} and the owner's {@code release()} throws {@link IllegalStateException} naming the closed
 * pool or file. {@code get} and {@code set}, which check nothing but the index on each call, throw too on the
 * thread that closed the pool and on any thread that learned of the close through a happens-before (a lock, a
 * volatile, a thread start or join); a thread that runs on without one (a loop already running, say) may
 * still reach the quarantined memory, which stays this array's until the end. The segments the array handed
 * out ({@link #contiguousSegment()}, {@link #forEachChunk}) keep working until then: the JDK holds their
 * arena, which cannot be closed meanwhile. The pool's next {@code close()} after the operation has ended ends
 * them and gives the memory back.
 *
 * <p>A platform thread whose access is cut short by a release or close on another thread may find its
 * interrupt status set: HotSpot (JDK 25) delivers the end of a shared arena to a thread inside an access as
 * an asynchronous exception, and interrupts the thread to do so.
 *
 * <p>An access to a view whose file someone else truncated throws {@link ArrayFileTruncatedException}, with
 * the limits {@link MappedArray} describes; a view of a closed {@link MappedArray} names the file.
 *
 * <p>Element access is not synchronized, like a Java array: threads that share an array need their own
 * happens-before (a lock, a volatile, a thread start or join).
 */
public abstract sealed class TypedArray implements RefCounted
        permits ByteArray, ShortArray, IntArray, LongArray, FloatArray, DoubleArray {

    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(TypedArray.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Bytes per chunk as a shift, and the offset mask within a chunk: the scattered access path. */
    final int chunkShift;
    final long chunkMask;
    /**
     * The whole array as one segment, or null when its chunks are scattered (portable path). Not final only for
     * {@link #cutOff()}; HotSpot trusts no instance field to be final, so get and set compile the same.
     */
    MemorySegment whole;
    /**
     * {@code whole} {@link IndexedElements#widen widened}, or null with it and in a {@link ByteArray} (a byte's index
     * is its offset, so {@code whole}'s own check is exact): the typed accessors' path, whose only exact bounds check
     * is theirs, {@link #checkedIndex}. Replaced with {@code whole} by {@link #cutOff()}.
     */
    MemorySegment indexed;
    /** The chunks' segments; replaced, never changed, by {@link #cutOff()}. */
    MemorySegment[] chunks;
    final long length;

    private final ArrayMemory memory;
    private final ElementType type;
    @SuppressWarnings("unused") // through REFS
    private volatile int refs = 1;

    TypedArray(ArrayMemory memory, ElementType type, long length) {
        this.memory = memory;
        this.type = type;
        this.length = length;
        this.whole = memory.whole();
        if (whole != null && whole.byteSize() != length << type.shift()) { // get and set rely on its bounds
            throw new IllegalArgumentException("the segment of " + length + " " + type + " elements has "
                    + whole.byteSize() + " bytes");
        }
        if (length > IndexedElements.INDEXABLE) {
            throw new IllegalArgumentException("an array of " + length + " elements is longer than any memory");
        }
        this.indexed = whole == null || type == ElementType.BYTE ? null : IndexedElements.widen(whole);
        this.chunks = memory.chunks();
        this.chunkShift = memory.chunkShift();
        this.chunkMask = (1L << chunkShift) - 1;
        memory.handedOutAs(this);
    }

    /**
     * The pool or file closed while an I/O operation or native call holds the memory (quarantined): this handle
     * lets go of its segments for ones of the same sizes that throw ({@link Views#ended}: bounds first, then the
     * closed arena, before any memory), so that get and set, which check nothing else, refuse too. Called under
     * the memory's lock; the segments handed out before keep working.
     */
    final void cutOff() {
        if (whole != null) {
            whole = Views.ended(whole.byteSize());
            indexed = indexed == null ? null : Views.ended(IndexedElements.SPAN);
        }
        MemorySegment[] ended = new MemorySegment[chunks.length];
        for (int i = 0; i < ended.length; i++) {
            ended[i] = Views.ended(chunks[i].byteSize());
        }
        chunks = ended;
    }

    /**
     * The number of elements.
     *
     * @return the length, fixed when the array was made
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public final long length() {
        checkAlive("read the length of");
        return length;
    }

    /**
     * The size of the array's memory: {@link #length()} times the element's size.
     *
     * @return the size in bytes
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public final long byteSize() {
        checkAlive("read the size of");
        return length << type.shift();
    }

    /**
     * The type of the elements; still answers once the array has ended.
     *
     * @return the element type
     */
    public final ElementType elementType() {
        return type;
    }

    /**
     * Whether the array is one contiguous segment (always on Linux; on the portable path when one chunk).
     *
     * @return true if {@link #contiguousSegment()} has a segment
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public final boolean isContiguous() {
        checkAlive("ask about");
        return whole != null;
    }

    /**
     * The whole array as one segment, when it is contiguous. The segment ends when the array is released.
     *
     * @return the segment, or empty when the array's chunks are scattered
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed)
     */
    public final Optional<MemorySegment> contiguousSegment() {
        checkAlive("get the segment of");
        return Optional.ofNullable(whole);
    }

    /**
     * Runs {@code kernel} over the array's memory: once with the whole array where it is contiguous, else
     * once per chunk, in index order, on the calling thread. Never runs on an array that has ended; if the
     * array ends while the kernel runs, the kernel's next access throws and so does this method.
     *
     * @param kernel the code to run over each piece
     * @throws NullPointerException if {@code kernel} is null
     * @throws IllegalStateException if the array has ended (released, or its pool or file closed), before or
     *         while the kernel runs
     * @throws ArrayFileTruncatedException if the array is a view of a file someone else truncated
     * @throws IllegalArgumentException if the kernel writes to a read-only view of a file: the JDK's refusal,
     *         as the cause of one naming the file
     * @throws RuntimeException whatever {@code kernel} throws, unchanged
     */
    public final void forEachChunk(ChunkKernel kernel) {
        Objects.requireNonNull(kernel, "kernel");
        checkAlive("run a kernel over");
        try {
            if (whole != null) {
                kernel.apply(whole, 0);
            } else {
                int shift = type.shift();
                for (int i = 0; i < chunks.length; i++) {
                    checkAlive("run a kernel over");
                    kernel.apply(chunks[i], ((long) i << chunkShift) >>> shift);
                }
            }
            memory.deliverPendingFault();
        } catch (InternalError e) {
            throw fault(e, 0);
        } catch (IllegalStateException e) {
            throw ifEnded(e, "run a kernel over");
        } catch (IllegalArgumentException e) {
            throw refusedAsReadOnly(e) ? ifReadOnly(e, "run a kernel writing to") : e;
        }
    }

    /**
     * Adds an owner; each subclass returns its own type.
     *
     * @return this array
     * @throws IllegalStateException if every owner already released the array, or its pool or file is closed
     */
    @Override
    public TypedArray retain() {
        checkAlive("retain");
        int current;
        do {
            current = (int) REFS.getVolatile(this);
            if (current <= 0) {
                throw ended("retain", null);
            }
            if (current == Integer.MAX_VALUE) {
                throw new IllegalStateException("reference count overflow on " + this);
            }
        } while (!REFS.weakCompareAndSet(this, current, current + 1));
        return this;
    }

    /**
     * Drops an owner; the last one gives the memory back.
     *
     * @return true if this call freed the memory (false if owners remain, or if the pool that made the
     *         array was closed first and freed it then, or quarantined it: then its next close frees it)
     * @throws IllegalStateException if every owner already released the array
     * @throws MemoryInUseException if this last release cannot end the memory now because an I/O operation or
     *         native call still uses one of its segments: then nothing changed (the array keeps its owner and its
     *         memory); release again once the operation has ended
     */
    @Override
    public final boolean release() {
        int current;
        do {
            current = (int) REFS.getVolatile(this);
            if (current <= 0) {
                throw ended("release", null);
            }
        } while (!REFS.weakCompareAndSet(this, current, current - 1));
        if (current != 1) {
            return false;
        }
        ArrayMemory.Ending ending = memory.close();
        if (ending == ArrayMemory.Ending.HELD) {
            REFS.setVolatile(this, 1);
            throw new MemoryInUseException("cannot release " + this + " now", memory.byteSize(),
                    "nothing changed: the array keeps its owner and its memory; release it again once that operation"
                            + " has ended", null);
        }
        return ending == ArrayMemory.Ending.ENDED;
    }

    /**
     * The number of owners now.
     *
     * @return the count, 0 once the last owner released the array
     */
    @Override
    public final int refCount() {
        return (int) REFS.getVolatile(this);
    }

    /**
     * The same as {@link #release()}.
     *
     * @throws IllegalStateException if every owner already released the array
     * @throws MemoryInUseException if an I/O operation or native call still uses its memory (see
     *         {@link #release()})
     */
    @Override
    public final void close() {
        release();
    }

    /** Copies {@code count} elements from {@code this[srcIndex..]} to {@code dst[dstIndex..]}; overlap is safe. */
    final void copyElements(long srcIndex, TypedArray dst, long dstIndex, long count) {
        Objects.requireNonNull(dst, "destination");
        checkAlive("copy from");
        dst.checkAlive("copy to");
        Objects.checkFromIndexSize(srcIndex, count, length);
        Objects.checkFromIndexSize(dstIndex, count, dst.length);
        int shift = type.shift();
        try {
            long per = Pieces.elementsPerPiece(count, shift);
            int pieces = Pieces.count(count, per);
            if (pieces > 1 && (dst != this || srcIndex + count <= dstIndex || dstIndex + count <= srcIndex)) {
                Pieces.run(pieces, piece -> {
                    long from = piece * per;
                    long n = Math.min(count - from, per);
                    copyBytes(this, (srcIndex + from) << shift, dst, (dstIndex + from) << shift, n << shift);
                });
            } else {
                copyBytes(this, srcIndex << shift, dst, dstIndex << shift, count << shift);
            }
            memory.deliverPendingFault();
            dst.memory.deliverPendingFault();
        } catch (InternalError e) {
            RuntimeException explained = explain(e, srcIndex);
            throw explained != null ? explained : dst.fault(e, dstIndex);
        } catch (IllegalStateException e) {
            throw dst.ifEnded(ifEnded(e, "copy from"), "copy to");
        } catch (IllegalArgumentException e) {
            throw dst.ifReadOnly(e, "copy to");
        }
    }

    /** Copies {@code count} elements to a Java array of this element type. */
    final void copyToArray(long srcIndex, Object dst, int dstIndex, int dstLength, int count) {
        copyWithArray(srcIndex, dst, dstIndex, dstLength, count, true);
    }

    /** Copies {@code count} elements from a Java array of this element type. */
    final void copyFromArray(Object src, int srcIndex, int srcLength, long dstIndex, int count) {
        copyWithArray(dstIndex, src, srcIndex, srcLength, count, false);
    }

    /** Copies between {@code this[index..]} and {@code array[arrayIndex..]}, one segment piece at a time. */
    private void copyWithArray(long index, Object array, int arrayIndex, int arrayLength, int count, boolean toArray) {
        String operation = toArray ? "copy from" : "copy to";
        checkAlive(operation);
        try {
            copyPieces(index, array, arrayIndex, arrayLength, count, toArray);
        } catch (IllegalStateException e) {
            throw ifEnded(e, operation);
        } catch (IllegalArgumentException e) {
            throw ifReadOnly(e, operation);
        }
    }

    private void copyPieces(long index, Object array, int arrayIndex, int arrayLength, int count, boolean toArray) {
        Objects.checkFromIndexSize(index, count, length);
        Objects.checkFromIndexSize(arrayIndex, count, arrayLength);
        ValueLayout layout = type.layout();
        int shift = type.shift();
        long offset = index << shift;
        int done = 0;
        try {
            while (done < count) {
                MemorySegment segment = segmentAt(offset);
                long within = offsetIn(offset);
                int n = (int) Math.min(count - done, (segment.byteSize() - within) >>> shift);
                if (toArray) {
                    MemorySegment.copy(segment, layout, within, array, arrayIndex + done, n);
                } else {
                    MemorySegment.copy(array, arrayIndex + done, segment, layout, within, n);
                }
                done += n;
                offset += (long) n << shift;
            }
            memory.deliverPendingFault();
        } catch (InternalError e) {
            throw fault(e, index);
        }
    }

    /**
     * Runs {@code body}, a whole-array operation on this array's elements from {@code from} on, writing them
     * (when {@code writes}) from {@code a} and {@code b} of the same length (absent ones null), and turns what
     * their accesses throw into the arrays' own exceptions.
     */
    final void operate(String operation, boolean writes, long from, TypedArray a, TypedArray b, Runnable body) {
        checkAlive(operation);
        for (TypedArray other : new TypedArray[] {a, b}) {
            if (other != null) {
                other.checkAlive(operation);
                if (other.length != length) {
                    throw new IllegalArgumentException("cannot " + operation + " " + describe() + " from "
                            + other.describe() + ": the lengths differ");
                }
            }
        }
        try {
            body.run();
            memory.deliverPendingFault();
            deliverFault(a);
            deliverFault(b);
        } catch (InternalError e) {
            throw faultIn(e, from, a, b);
        } catch (IllegalStateException e) {
            throw ifEnded(b != null ? b.ifEnded(e, operation) : a != null ? a.ifEnded(e, operation) : e, operation);
        } catch (IllegalArgumentException e) {
            throw writes && refusedAsReadOnly(e) ? ifReadOnly(e, operation) : e;
        }
    }

    /**
     * What to throw for {@code fault}, seen by an operation on elements {@code from} on of this array and
     * {@code a} and {@code b}: the truncation of the first one's file that explains it, naming the first element
     * the file lost; else the fault.
     */
    private RuntimeException faultIn(InternalError fault, long from, TypedArray a, TypedArray b) {
        for (TypedArray array : new TypedArray[] {this, a, b}) {
            RuntimeException explained = array == null ? null : array.explain(fault, from);
            if (explained instanceof ArrayFileTruncatedException truncated) {
                int shift = array.type.shift();
                long firstGone = (truncated.fileSize() - truncated.neededSize() + (array.length << shift)) >> shift;
                return firstGone > from && firstGone < array.length ? array.explain(fault, firstGone) : truncated;
            }
        }
        throw fault;
    }

    private static void deliverFault(TypedArray array) {
        if (array != null) {
            array.memory.deliverPendingFault();
        }
    }

    final MemorySegment segmentAt(long byteOffset) {
        return whole != null ? whole : chunks[(int) (byteOffset >>> chunkShift)];
    }

    final long offsetIn(long byteOffset) {
        return whole != null ? byteOffset : byteOffset & chunkMask;
    }

    private static void copyBytes(TypedArray src, long srcOffset, TypedArray dst, long dstOffset, long bytes) {
        if (src.whole != null && dst.whole != null) {
            MemorySegment.copy(src.whole, srcOffset, dst.whole, dstOffset, bytes);
            return;
        }
        boolean backwards = src == dst && dstOffset > srcOffset && dstOffset < srcOffset + bytes;
        if (!backwards) {
            long done = 0;
            while (done < bytes) {
                long n = pieceForward(src, srcOffset + done, dst, dstOffset + done, bytes - done);
                MemorySegment.copy(src.segmentAt(srcOffset + done), src.offsetIn(srcOffset + done),
                        dst.segmentAt(dstOffset + done), dst.offsetIn(dstOffset + done), n);
                done += n;
            }
        } else {
            long left = bytes;
            while (left > 0) {
                long n = pieceBackward(src, srcOffset + left, dst, dstOffset + left, left);
                long s = srcOffset + left - n;
                long d = dstOffset + left - n;
                MemorySegment.copy(src.segmentAt(s), src.offsetIn(s), dst.segmentAt(d), dst.offsetIn(d), n);
                left -= n;
            }
        }
    }

    /** Bytes from the two offsets onwards that stay within one segment on both sides. */
    private static long pieceForward(TypedArray src, long srcOffset, TypedArray dst, long dstOffset, long max) {
        long n = Math.min(max, src.segmentAt(srcOffset).byteSize() - src.offsetIn(srcOffset));
        return Math.min(n, dst.segmentAt(dstOffset).byteSize() - dst.offsetIn(dstOffset));
    }

    /** Bytes before the two (exclusive) end offsets that stay within one segment on both sides. */
    private static long pieceBackward(TypedArray src, long srcEnd, TypedArray dst, long dstEnd, long max) {
        long n = Math.min(max, src.offsetIn(srcEnd - 1) + 1);
        return Math.min(n, dst.offsetIn(dstEnd - 1) + 1);
    }

    /** Throws if the array has ended: released by its last owner, or closed with its pool or file. */
    final void checkAlive(String operation) {
        if (!memory.isAlive() || (int) REFS.getVolatile(this) <= 0) {
            throw ended(operation, null);
        }
    }

    /**
     * What to throw for {@code e}, thrown by a segment access: the array's own message if the array has
     * ended (the segment was closed under the access), else {@code e} itself.
     */
    final IllegalStateException ifEnded(IllegalStateException e, String operation) {
        return memory.isAlive() && memory.viewsOpen() ? e : ended(operation, e);
    }

    private IllegalStateException ended(String operation, IllegalStateException cause) {
        ArrayMemory.FileView file = memory.file();
        if (file != null) {
            return file.closed(cause); // a view of a mapped file names the file
        }
        String why = !memory.closedByOwner() ? "it was already released" : memory.owner() + " is closed"
                + (memory.isQuarantined() ? " (an I/O operation or native call held the array's memory then: it"
                        + " stays mapped until the pool's next close after that operation)" : "");
        return new IllegalStateException("cannot " + operation + " " + this + ": " + why, cause);
    }

    /**
     * {@code index}, checked to be an element's: the exact bounds check of the {@code indexed} path, with the length
     * masked so that HotSpot knows the index is below {@link IndexedElements}' constant count.
     */
    final long checkedIndex(long index) {
        return Objects.checkIndex(index, length & IndexedElements.INDEXABLE);
    }

    /** What {@code get} or {@code set} throws for {@code e}, thrown by its access to element {@code index}. */
    final RuntimeException accessFailed(Throwable e, long index, String operation) {
        if (e instanceof InternalError fault) {
            return fault(fault, index);
        }
        if (e instanceof IndexOutOfBoundsException) { // the segment's message, in Objects.checkIndex's words
            return new IndexOutOfBoundsException("Index " + index + " out of bounds for length " + length);
        }
        if (e instanceof IllegalArgumentException refused) { // the JDK checks read-only before the index
            return ifReadOnly(refused, operation + " element " + index + " of");
        }
        return ifEnded((IllegalStateException) e, operation);
    }

    /**
     * What to throw for {@code e}, thrown by a write to a segment of this array: for a read-only view of a
     * file (the only arrays whose segments are read-only), an exception naming the file; else {@code e}.
     */
    final RuntimeException ifReadOnly(IllegalArgumentException e, String operation) {
        ArrayMemory.FileView file = memory.file();
        return file != null && segmentAt(0).isReadOnly() ? file.readOnly(operation, e) : e;
    }

    /**
     * Whether {@code e} is the JDK's refusal to write a read-only segment, thrown by its access check (a
     * kernel may throw an {@link IllegalArgumentException} of its own, which passes unchanged).
     */
    private static boolean refusedAsReadOnly(IllegalArgumentException e) {
        StackTraceElement[] stack = e.getStackTrace();
        return stack.length > 0 && stack[0].getClassName().startsWith("jdk.internal.foreign.")
                && stack[0].getMethodName().equals("checkReadOnly");
    }

    /**
     * What to throw for {@code fault}, the JDK's report of a failed access (a SIGBUS) at element {@code index}:
     * for a view of a file, an {@link ArrayFileTruncatedException} when the file was truncated; else the fault.
     */
    final RuntimeException fault(InternalError fault, long index) {
        RuntimeException explained = explain(fault, index);
        if (explained == null) {
            throw fault;
        }
        return explained;
    }

    private RuntimeException explain(InternalError fault, long index) {
        ArrayMemory.FileView file = memory.file();
        return file == null ? null : file.explainFault(fault, index);
    }

    @Override
    public String toString() {
        return describe(memory.isAlive() && refCount() > 0 ? "" : ", released");
    }

    /** The array as {@code toString()} names it while alive, for messages about it whatever its state. */
    final String describe() {
        return describe("");
    }

    private String describe(String state) {
        return getClass().getSimpleName() + "[length=" + length + (whole != null ? ", contiguous" : ", "
                + chunks.length + " chunks") + (memory.owner().isEmpty() ? "" : ", " + memory.owner()) + state + "]";
    }
}
