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
 * The figures every pool reports, under the same names in its stats record, its MXBean ({@link PoolMXBean})
 * and its Micrometer meters: a snapshot from {@code BufferPool.stats()} ({@code BufferPoolStats}) or
 * {@code ChunkPool.stats()} ({@code ChunkPoolStats}).
 *
 * <p>{@code bytesFromOs() == bytesInUse() + bytesCached()} when the snapshot was taken. A limit is
 * {@code MemoryBudget.UNLIMITED} ({@code Long.MAX_VALUE}) when there is none, here and in every MXBean, so
 * that {@code used / limit} needs no special case.
 */
public interface PoolStats {

    /**
     * The pool's name, as given to its builder.
     *
     * @return the name
     */
    String name();

    /**
     * The path of the budget the pool charges, from its root: {@code process/io}.
     *
     * @return the budget's path
     */
    String budgetPath();

    /**
     * Bytes the pool holds from the OS now.
     *
     * @return bytes in use plus bytes cached
     */
    long bytesFromOs();

    /**
     * Bytes held for callers now: leases or arrays.
     *
     * @return the bytes in use
     */
    long bytesInUse();

    /**
     * Bytes held from the OS but not in use, kept for the next request until {@code trim()}.
     *
     * @return the bytes cached
     */
    long bytesCached();

    /**
     * Of {@link #bytesInUse()}, the bytes the pool could not give back, at a release, trim or close, because an
     * I/O operation or native call still holds a view of them. They stay mapped and charged, and are never
     * lent again; the next trim or close after the operation has ended gives them back.
     *
     * @return the bytes quarantined, 0 normally
     */
    long bytesQuarantined();

    /**
     * The most {@link #bytesFromOs()} the pool ever held at once.
     *
     * @return the peak in bytes
     */
    long peakBytes();

    /**
     * The limit of the budget the pool charges.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none
     */
    long limitBytes();

    /**
     * The snapshot as text for people, several lines.
     *
     * @return the text
     */
    String format();
}
