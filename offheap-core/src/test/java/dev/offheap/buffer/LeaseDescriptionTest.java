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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** What a lease says of itself: its toString, and the message of a use after release. */
class LeaseDescriptionTest {

    @Test
    void aPooledLeaseNamesItsPoolSizeSlotAndClass() {
        try (BufferPool pool = BufferPool.builder().name("described").threadCaches(0).leakSampling(0)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            BufferLease buffer = pool.acquire(100);
            assertThat(buffer.toString()).isEqualTo("PooledBuffer[pool=described, size=100, refCount=1]");
            buffer.retain();
            assertThat(buffer.toString()).isEqualTo("PooledBuffer[pool=described, size=100, refCount=2]");
            buffer.release();
            buffer.release();
            // the first slot cut from the class's first slab
            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot use buffer of 100 bytes from pool 'described' (slot 0 of the 112-byte class):"
                            + " it was already released (a double release, or use after release)");
        }
    }

    @Test
    void aDedicatedLeaseNamesItsPoolAndSize() {
        try (BufferPool pool = BufferPool.builder().name("described-large").leakSampling(0).jmx(false).build()) {
            BufferLease buffer = pool.acquire((1 << 20) + 1);
            assertThat(buffer.toString()).isEqualTo("DedicatedBuffer[pool=described-large, size=1048577, refCount=1]");
            buffer.release();
            assertThatThrownBy(buffer::size).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot ask the size of buffer of 1048577 bytes from pool 'described-large': it was"
                            + " already released (a double release, or use after release)");
        }
    }
}
