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

import dev.offheap.account.Bytes;

/**
 * A snapshot of one chunk source of a {@link ChunkPool}: its memory or its spill file.
 *
 * @param name        {@code "memory"} or {@code "spill"}
 * @param chunkSize   bytes per chunk
 * @param created     chunks created since the pool started
 * @param inUse       chunks held by arrays
 * @param free        chunks with space behind them waiting for the next array
 * @param holes       chunks whose space was given back by {@code trim()}
 * @param bytesCharged bytes this source charged to its budget (in use plus free): its own share, not the
 *                    budget's whole use when other pools or owners share the budget
 * @param limitBytes  the limit of the source's budget, {@code Long.MAX_VALUE} when there is none
 * @param peakBacked  the most chunks with space behind them (in use plus free) at once
 */
public record ChunkSourceStats(String name, long chunkSize, long created, long inUse, long free, long holes,
        long bytesCharged, long limitBytes, long peakBacked) {

    /**
     * Bytes of chunks with space behind them: in use plus free (the budget may be shared with others).
     *
     * @return {@code (inUse + free) x chunkSize}
     */
    public long bytesBacked() {
        return (inUse + free) * chunkSize;
    }

    /**
     * Bytes of chunks held by arrays.
     *
     * @return {@code inUse x chunkSize}
     */
    public long bytesInUse() {
        return inUse * chunkSize;
    }

    /**
     * Bytes of chunks with space behind them waiting for the next array.
     *
     * @return {@code free x chunkSize}
     */
    public long bytesFree() {
        return free * chunkSize;
    }

    /**
     * One line for logs: {@code memory: 12 chunks in use (48 MiB), 3 free (12 MiB), 0 holes; 60 MiB of 1 GiB}.
     *
     * @return the line
     */
    public String format() {
        return name + ": " + inUse + " chunks in use (" + Bytes.human(bytesInUse()) + "), " + free + " free ("
                + Bytes.human(bytesFree()) + "), " + holes + " holes; " + Bytes.human(bytesCharged) + " of "
                + (limitBytes == Long.MAX_VALUE ? "unlimited" : Bytes.human(limitBytes));
    }
}
