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

package dev.offheap.bench;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * One way of holding {@link #length} doubles, read with {@link #get(long)} as user code would: one small
 * subclass per layout of {@link StoreBenchmark}, chosen in its {@code @Setup}. Each JMH fork runs one
 * {@code @Param} combination, so only one subclass is ever instantiated in a fork: the type profile of the
 * benchmark loop's call of {@link #get(long)} is monomorphic and C2 inlines it behind one class check of a
 * receiver that does not change in the loop (checked with {@code -XX:+PrintInlining}: "inline (hot)",
 * "TypeProfile ... = the layout's class"). Every layout gets the same treatment, so none pays for a dispatch
 * the others skip. (It is not class hierarchy analysis: verifying {@link #create} loads every subclass.)
 */
abstract class DoubleStorage implements AutoCloseable {
    /** The layouts of {@link StoreBenchmark}, and the diagnostic one that is only run on request. */
    static final String NAMES = "double-array, flat-segment, store-memory, store-spill, bytebuffer-chunks, unsafe-table"
            + " (diagnostic: store-memory-segment)";

    static final ValueLayout.OfDouble DOUBLE = ValueLayout.JAVA_DOUBLE;

    final long length;

    DoubleStorage(long length) {
        this.length = length;
    }

    /** The element at {@code i}, {@code 0 <= i < length}. */
    abstract double get(long i);

    abstract void set(long i, double value);

    /** Frees the memory (and files) the layout holds; the GC-managed ones just drop their references. */
    @Override
    public void close() {}

    /**
     * @param spillDirectory the directory for {@code store-spill}'s files (created and deleted by the caller)
     */
    static DoubleStorage create(String name, long length, Path spillDirectory) throws IOException {
        return switch (name) {
            case "double-array" -> new HeapArray(length);
            case "flat-segment" -> new FlatSegment(length);
            case "store-memory" -> StoreLayout.memory(length);
            case "store-spill" -> StoreLayout.spill(length, spillDirectory);
            case "store-memory-segment" -> StoreLayout.memorySegment(length);
            case "bytebuffer-chunks" -> new ByteBufferChunks(length);
            case "unsafe-table" -> new UnsafeTable(length);
            default -> throw new IllegalArgumentException("unknown layout '" + name + "'; known: " + NAMES);
        };
    }

    /** A heap {@code double[]}, indexed as {@code a[(int) i]}; only up to 2^31 - 9 elements. */
    static final class HeapArray extends DoubleStorage {
        private final double[] array;

        HeapArray(long length) {
            super(length);
            if (length > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("a double[] holds at most 2^31 - 9 elements: " + length);
            }
            array = new double[(int) length];
        }

        @Override
        double get(long i) {
            return array[(int) i];
        }

        @Override
        void set(long i, double value) {
            array[(int) i] = value;
        }
    }

    /** One native segment of all the doubles, from a shared arena, read with {@code getAtIndex}. */
    static final class FlatSegment extends DoubleStorage {
        private final Arena arena = Arena.ofShared();
        private final MemorySegment segment;

        FlatSegment(long length) {
            super(length);
            segment = arena.allocate(DOUBLE, length);
        }

        @Override
        double get(long i) {
            return segment.getAtIndex(DOUBLE, i);
        }

        @Override
        void set(long i, double value) {
            segment.setAtIndex(DOUBLE, i, value);
        }

        @Override
        public void close() {
            arena.close();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Seed 003 (Sonic Field's segmented storage, "Native Speed File Backed Large Data Storage In 'Pure' Java",
    // SFData), rebuilt as peers. Matched from the seed:
    //  - chunk size CHUNK_LEN = 1024 * 1024 bytes, CHUNK_SHIFT = 20, CHUNK_MASK = CHUNK_LEN - 1 (the seed's
    //    text; later SFData versions went to 512 KiB and then 64 KiB chunks, see anchors.md);
    //  - chunks are direct ByteBuffers (the seed's are DirectByteBuffers too), native byte order;
    //  - the element address arithmetic exactly as the seed writes it: bytePos = index << 3,
    //    pos = bytePos & CHUNK_MASK, bufPos = (bytePos - pos) >> CHUNK_SHIFT;
    //  - "traditional": chunks[(int) bufPos].getDouble((int) pos) on a ByteBuffer[];
    //  - "unsafe": an off-heap table of chunk base addresses from Unsafe.allocateMemory, sized
    //    (1 + ((l << 3) >> CHUNK_SHIFT)) << 3 bytes, filled with putAddress, read with
    //    unsafe.getDouble(unsafe.getAddress(chunkIndex + (bufPos << 3)) + pos); Unsafe from the static final
    //    field theUnsafe by reflection, held in a static final field; the table address in a final field.
    // Deviations:
    //  - chunks come from ByteBuffer.allocateDirect (anonymous memory), not from mappings of round-robin temp
    //    files, and are allocated fresh in order rather than taken off a LIFO free list (a fresh store of the
    //    seed's pool is in order too). The store's own spill layout is the one measured over files.
    //  - the index is a long: the seed's getSample(int index) computes index << 3 in int arithmetic, which
    //    overflows from 2 GiB of doubles (index 2^28) on, below our 4 GiB size.
    //  - a chunk's address comes from MemorySegment.ofBuffer(chunk).address() instead of calling
    //    DirectByteBuffer.address() by reflection (that needs --add-opens java.base/java.nio on JDK 16+); the
    //    value is the same.
    //  - the seed's bounds checks under a debug flag are left out (it runs without them).
    // ---------------------------------------------------------------------------------------------------------

    static final long CHUNK_LEN = 1024 * 1024;
    static final long CHUNK_SHIFT = 20;
    static final long CHUNK_MASK = CHUNK_LEN - 1;

    /** The seed's direct chunks for {@code length} doubles: ceil(length * 8 / CHUNK_LEN) of them. */
    static ByteBuffer[] seedChunks(long length) {
        long bytes = length << 3;
        long count = (bytes + CHUNK_LEN - 1) >> CHUNK_SHIFT;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many chunks: " + count);
        }
        ByteBuffer[] chunks = new ByteBuffer[(int) count];
        for (int c = 0; c < chunks.length; c++) {
            chunks[c] = ByteBuffer.allocateDirect((int) CHUNK_LEN).order(ByteOrder.nativeOrder());
        }
        return chunks;
    }

    /** Seed 003 before its speed-up: an array of direct {@code ByteBuffer} chunks. */
    static final class ByteBufferChunks extends DoubleStorage {
        private final ByteBuffer[] chunks;

        ByteBufferChunks(long length) {
            super(length);
            chunks = seedChunks(length);
        }

        @Override
        double get(long index) {
            long bytePos = index << 3;
            long pos = bytePos & CHUNK_MASK;
            long bufPos = (bytePos - pos) >> CHUNK_SHIFT;
            return chunks[(int) bufPos].getDouble((int) pos);
        }

        @Override
        void set(long index, double value) {
            long bytePos = index << 3;
            long pos = bytePos & CHUNK_MASK;
            long bufPos = (bytePos - pos) >> CHUNK_SHIFT;
            chunks[(int) bufPos].putDouble((int) pos, value);
        }
    }

    /**
     * Seed 003's fast version: the same chunks, reached through an off-heap table of their addresses with
     * {@code sun.misc.Unsafe}. Benchmark code only, for this comparison: offheap itself never uses Unsafe.
     */
    @SuppressWarnings("removal") // Unsafe's memory access methods are deprecated for removal (JEP 471)
    static final class UnsafeTable extends DoubleStorage {
        private static final sun.misc.Unsafe unsafe = getUnsafe();

        private static sun.misc.Unsafe getUnsafe() {
            try {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                return (sun.misc.Unsafe) f.get(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Keeps the chunks reachable, so that their Cleaners do not free them while the table points there. */
        private final ByteBuffer[] chunks;
        private final long chunkIndex;
        private boolean freed;

        UnsafeTable(long length) {
            super(length);
            chunks = seedChunks(length);
            long size = (1 + ((length << 3) >> CHUNK_SHIFT)) << 3;
            chunkIndex = unsafe.allocateMemory(size);
            long offSet = 0;
            for (ByteBuffer chunk : chunks) {
                unsafe.putAddress(chunkIndex + offSet, MemorySegment.ofBuffer(chunk).address());
                offSet += 8;
            }
        }

        private long getAddress(long index) {
            long bytePos = index << 3;
            long pos = bytePos & CHUNK_MASK;
            long bufPos = (bytePos - pos) >> CHUNK_SHIFT;
            long address = chunkIndex + (bufPos << 3);
            return unsafe.getAddress(address) + pos;
        }

        @Override
        double get(long index) {
            return unsafe.getDouble(getAddress(index));
        }

        @Override
        void set(long index, double value) {
            unsafe.putDouble(getAddress(index), value);
        }

        @Override
        public void close() {
            if (!freed) {
                freed = true;
                unsafe.freeMemory(chunkIndex);
            }
        }
    }
}
