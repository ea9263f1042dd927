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

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.HeapBytes;
import org.junit.jupiter.api.Test;

/**
 * The garbage a common lease makes: its handle only, 32 bytes with compressed oops and class pointers (what
 * only sampled leases need sits in an object of their own), and no {@code ByteBuffer} while
 * {@link BufferLease#byteBuffer()} is not called.
 */
class LeaseHandleSizeTest {

    @Test
    void aCommonLeaseMakesOneHandleOf32Bytes() {
        try (BufferPool pool = BufferPool.builder().name("handle-size").jmx(false).leakSampling(0)
                .useAfterReleaseSampling(0).build()) {
            double perLease = HeapBytes.perRound(() -> {
                BufferLease lease = pool.acquire(1024);
                lease.segment();
                lease.release();
            });
            assertThat(perLease).as("heap bytes per acquire, segment() and release").isLessThanOrEqualTo(32.5);
        }
    }
}
