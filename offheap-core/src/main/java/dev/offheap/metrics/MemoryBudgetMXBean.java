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
 * A {@code MemoryBudget} as JMX shows it: {@code dev.offheap:type=MemoryBudget,name=<budget path>}, while a
 * registered pool charges it (see the package documentation). Read live. Limits follow {@link PoolStats}:
 * {@code Long.MAX_VALUE} when there is none.
 */
public interface MemoryBudgetMXBean {

    /**
     * Names from the root down, joined by '/'.
     *
     * @return the budget's path
     */
    String getPath();

    /**
     * Bytes charged now.
     *
     * @return the bytes
     */
    long getUsedBytes();

    /**
     * The most bytes ever charged at once.
     *
     * @return the peak in bytes
     */
    long getPeakBytes();

    /**
     * This level's limit.
     *
     * @return the limit in bytes, {@code Long.MAX_VALUE} when there is none
     */
    long getLimitBytes();

    /**
     * What a charge could still get here, counting every ancestor's room.
     *
     * @return the bytes, {@code Long.MAX_VALUE} when nothing limits it
     */
    long getAvailableBytes();
}
