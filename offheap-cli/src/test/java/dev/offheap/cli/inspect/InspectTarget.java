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

package dev.offheap.cli.inspect;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM that {@link InspectAttributionTest} inspects. It prints {@code BASELINE}, waits for a line on stdin,
 * then allocates known amounts and prints {@code READY}, and sleeps until killed. The amounts are in
 * {@link #HEAP_BYTES} and its neighbours; the test reads them from here.
 */
public final class InspectTarget {
    static final long MIB = 1 << 20;
    static final int HEAP_BYTES = (int) (200 * MIB);
    static final int DIRECT_BUFFERS = 64;
    static final int DIRECT_BUFFER_BYTES = (int) MIB;
    static final int MAPPED_BYTES = (int) (32 * MIB);
    static final int POOL_LEASES = 256;
    static final int POOL_LEASE_BYTES = 256 * 1024;
    static final int MALLOC_BLOCKS = 300_000;
    static final int MALLOC_BLOCK_BYTES = 1000;
    /** What glibc holds for each block: the request and an 8-byte header, rounded up to 16 bytes. */
    static final int MALLOC_CHUNK_BYTES = 1008;

    private static final List<Object> KEEP = new ArrayList<>();

    private InspectTarget() {}

    public static void main(String[] args) throws Throwable {
        System.out.println("BASELINE");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        heap();
        direct();
        mapped(Path.of(args[0]));
        offheapPool();
        fragmentedMalloc();
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void heap() {
        byte[] array = new byte[HEAP_BYTES];
        array[array.length - 1] = 1;
        KEEP.add(array);
    }

    private static void direct() {
        for (int i = 0; i < DIRECT_BUFFERS; i++) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(DIRECT_BUFFER_BYTES);
            buffer.put(0, (byte) i);
            KEEP.add(buffer);
        }
    }

    private static void mapped(Path file) throws Exception {
        // Written in small pieces: one 32 MiB array would itself add 32 MiB to the heap's resident pages.
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            ByteBuffer piece = ByteBuffer.allocate(64 * 1024);
            for (int written = 0; written < MAPPED_BYTES; written += piece.capacity()) {
                channel.write(piece.clear());
            }
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, MAPPED_BYTES);
            long sum = 0;
            for (int i = 0; i < MAPPED_BYTES; i += 4096) {
                sum += map.get(i);
            }
            KEEP.add(map);
            KEEP.add(sum);
        }
    }

    private static void offheapPool() throws Exception {
        BufferPool pool = BufferPool.builder().name("inspect-test").build();
        for (int i = 0; i < POOL_LEASES; i++) {
            BufferLease buffer = pool.acquire(POOL_LEASE_BYTES);
            buffer.segment().fill((byte) 1);
            KEEP.add(buffer);
        }
        KEEP.add(pool); // registers dev.offheap:type=BufferPool,name=inspect-test, which inspect reads
    }

    private static void fragmentedMalloc() throws Throwable {
        Linker linker = Linker.nativeLinker();
        MethodHandle malloc = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        MethodHandle free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        long[] blocks = new long[MALLOC_BLOCKS];
        for (int i = 0; i < MALLOC_BLOCKS; i++) {
            MemorySegment block = (MemorySegment) malloc.invokeExact((long) MALLOC_BLOCK_BYTES);
            block.reinterpret(MALLOC_BLOCK_BYTES).fill((byte) 1);
            blocks[i] = block.address();
        }
        for (int i = 0; i < MALLOC_BLOCKS; i += 2) {
            free.invokeExact(MemorySegment.ofAddress(blocks[i]));
        }
    }
}
