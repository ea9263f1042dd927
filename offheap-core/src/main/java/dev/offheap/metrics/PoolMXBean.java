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

package dev.offheap.metrics;

/**
 * What every pool shows in JMX, under the names of {@link PoolStats}: extended by {@link BufferPoolMXBean}
 * and {@link ChunkPoolMXBean}, so that a tool can read any offheap pool through this one interface.
 */
public interface PoolMXBean {

    /**
     * The pool's name (the {@code ObjectName} may carry a suffix).
     *
     * @return the name
     */
    String getName();

    /**
     * Bytes the pool holds from the OS now.
     *
     * @return {@code BytesInUse + BytesCached}
     */
    long getBytesFromOs();

    /**
     * Bytes held for callers now: leases or arrays.
     *
     * @return the bytes in use
     */
    long getBytesInUse();

    /**
     * Bytes held from the OS but not in use, kept for the next request until {@code trim()}.
     *
     * @return the bytes cached
     */
    long getBytesCached();

    /**
     * Of {@code BytesInUse}, bytes the pool could not give back because an I/O operation or native call holds
     * a view of them (see {@link PoolStats#bytesQuarantined()}).
     *
     * @return the bytes quarantined, 0 normally
     */
    long getBytesQuarantined();

    /**
     * The most {@code BytesFromOs} ever held at once.
     *
     * @return the peak in bytes
     */
    long getPeakBytes();

    /**
     * The limit of the budget the pool charges.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none
     */
    long getLimitBytes();

    /**
     * The path of the budget the pool charges.
     *
     * @return the path, from the root: {@code process/io}
     */
    String getBudgetPath();

    /**
     * The addresses the pool holds from the OS now, reserved addresses included: {@code offheap inspect}
     * counts the pages resident inside them. Changes only when the pool maps or unmaps memory, never per
     * acquire.
     *
     * @return pairs {@code [start0, end0, start1, end1, ...]} in address order, ends exclusive
     */
    long[] getAddressRanges();
}
