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

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** The heap a server allocated, as the admin console reads it: every thread's, those that ended included. */
class HeapAllocatedTest {
    private static volatile byte[] sink;

    @Test
    void aThreadThatEndedStillCounts() throws Exception {
        long before = HeapAllocated.totalBytes();
        Thread thread = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 1024; i++) {
                sink = new byte[64 * 1024];
            }
        });
        thread.join();
        long after = HeapAllocated.totalBytes();

        assertThat(before).isPositive();
        assertThat(after - before).isGreaterThanOrEqualTo(64L << 20);
        assertThat(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(thread.threadId()))
                .as("what a sum over the live threads would have counted for it").isEqualTo(-1);
    }
}
