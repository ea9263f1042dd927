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

package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.buffer.*;
import dev.offheap.store.*;
import java.nio.*;
import org.junit.jupiter.api.Test;

/** offheap's packages imported whole beside java.nio's: no simple name may be ambiguous (it used to be Buffer). */
class WildcardImportsTest {

    @Test
    void javaNioBufferStaysReachableBesideEveryOffheapPackage() {
        Buffer nio = ByteBuffer.allocate(8);
        try (BufferPool pool = BufferPool.builder().build(); BufferLease lease = pool.acquire(8)) {
            assertThat(nio.capacity()).isEqualTo(lease.size());
        }
        assertThat(ElementType.DOUBLE).isNotNull();
    }
}
