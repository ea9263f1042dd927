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

package dev.offheap.suite;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Heap bytes the calling thread allocates, as the JDK counts them (com.sun.management's ThreadMXBean, read by
 * name through the MBean server, so that modules which cannot read {@code jdk.management} can use it): for
 * tests of how much garbage an operation makes, an exact count per object, not a timing.
 */
public final class HeapBytes {
    private static final int ROUNDS = 20_000;

    private HeapBytes() {}

    /** The bytes this thread has allocated so far. */
    public static long allocatedByThisThread() {
        try {
            return (Long) ManagementFactory.getPlatformMBeanServer()
                    .getAttribute(new ObjectName("java.lang:type=Threading"), "CurrentThreadAllocatedBytes");
        } catch (JMException e) {
            throw new AssertionError(e);
        }
    }

    /** Heap bytes per run of {@code round} on this thread, over 20,000 runs after as many to warm up. */
    public static double perRound(Runnable round) {
        for (int i = 0; i < ROUNDS; i++) {
            round.run();
        }
        allocatedByThisThread(); // the first reading in a JVM sets JMX's introspection up, tens of KB after its read
        long before = allocatedByThisThread();
        for (int i = 0; i < ROUNDS; i++) {
            round.run();
        }
        return (allocatedByThisThread() - before) / (double) ROUNDS;
    }
}
