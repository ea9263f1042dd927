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

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Waits;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Close lets go of the pool's lifecycle lock: another thread that uses the pool later is refused, not blocked. */
class ClosedPoolFromAnotherThreadTest {

    @Test
    void anotherThreadAllocatingAfterCloseIsRefusedAtOnce() throws InterruptedException {
        ChunkPool pool = ChunkPool.builder().name("closed-elsewhere").chunkSize(64 << 10).jmx(false).build();
        pool.bytes(10).release();
        pool.close();

        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = Thread.ofPlatform().start(() -> {
            try {
                pool.bytes(10).release();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        Waits.join(other);

        assertThat(thrown.get()).isInstanceOf(IllegalStateException.class)
                .hasMessage("chunk pool 'closed-elsewhere' is closed");
    }
}
