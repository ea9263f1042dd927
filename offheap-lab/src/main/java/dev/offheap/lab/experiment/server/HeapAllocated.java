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

package dev.offheap.lab.experiment.server;

import java.lang.management.ManagementFactory;

/**
 * The bytes of Java heap this JVM allocated since it started, by all its threads, those that ended included:
 * HotSpot's {@link com.sun.management.ThreadMXBean#getTotalThreadAllocatedBytes()}.
 */
final class HeapAllocated {
    private HeapAllocated() {}

    /**
     * The total so far, -1 if this JVM cannot count it.
     *
     * <p>Why the total and not the sum of {@code getThreadAllocatedBytes} over the live threads: the sum loses what
     * a thread that ended between two readings allocated (gRPC's executor and Jetty's pool start and end threads
     * under load), whereas HotSpot adds the bytes of every ended thread to those of the live ones, each live
     * thread's counted up to the used part of its current TLAB, so the difference of two readings is every byte
     * allocated between them (virtual threads' included: they allocate on their carriers). HotSpot keeps the
     * total monotonic (a thread ending during the reading itself is the one imprecision, by what it allocated).
     * {@code HeapAllocatedTest} checks that a thread that ended still counts.
     */
    static long totalBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()) {
            return threads.getTotalThreadAllocatedBytes();
        }
        return -1;
    }
}
