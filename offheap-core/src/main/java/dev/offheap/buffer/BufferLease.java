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

package dev.offheap.buffer;

import dev.offheap.account.RefCounted;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A lease of native memory: exactly {@link #size()} bytes, readable and writable, until released.
 *
 * <p>A lease is {@link RefCounted}: it starts with one reference, {@link #retain()} adds one,
 * {@link #release()} and {@link #close()} drop one, and when the last goes the memory goes back to its pool.
 * Use it with try-with-resources:
 *
 * {@snippet :
 * try (BufferLease buffer = pool.acquire(4096)) {
 *     int n = channel.read(buffer.byteBuffer());
 *     ...
 * }
 * }
 *
 * <p>Each lease is an object of its own, never reused. After the last release every method but
 * {@link #refCount()} throws {@link IllegalStateException} naming the pool and the size, so a handle kept by
 * mistake can never act on a later lease of the same memory. What a {@code MemorySegment} or
 * {@code ByteBuffer} obtained earlier does after release depends on the pool's mode: see
 * {@link BufferPool.Builder#checked(boolean)} and {@link BufferPool.Builder#useAfterReleaseSampling(int)}.
 *
 * <p>A lease may be used and released by any thread; its {@code ByteBuffer} has a position and limit like
 * any other and is not itself safe for concurrent use.
 */
public sealed interface BufferLease extends RefCounted permits Lease {

    /**
     * This lease's memory as a {@code ByteBuffer}, big-endian like any new {@code ByteBuffer} (unless the
     * pool was built with {@link BufferPool.Builder#byteOrder}). The first call in a lease returns a new
     * buffer with position 0 and limit {@link #size()}, shared with no other lease; later calls in the same
     * lease return the same object as the caller left it.
     *
     * @return the buffer over the lease's memory
     * @throws IllegalStateException if the lease was released
     */
    ByteBuffer byteBuffer();

    /**
     * This lease's memory as a segment of exactly {@link #size()} bytes.
     *
     * @return a segment of the lease's memory
     * @throws IllegalStateException if the lease was released
     */
    MemorySegment segment();

    /**
     * The number of bytes leased, as asked for.
     *
     * @return the size in bytes
     * @throws IllegalStateException if the lease was released
     */
    int size();

    /**
     * Adds a reference: one more {@link #release()} is then needed to give the memory back.
     *
     * @return this lease
     * @throws IllegalStateException if the lease was released
     */
    @Override
    BufferLease retain();

    /**
     * Drops a reference.
     *
     * @return true if that was the last reference and the memory went back to its pool
     * @throws IllegalStateException if the lease was already released (a double release)
     */
    boolean release();

    /** The number of references held now, 0 once released. */
    int refCount();

    /**
     * The same as one {@link #release()}.
     *
     * @throws IllegalStateException if the lease was already released (a double release)
     */
    @Override
    void close();
}
