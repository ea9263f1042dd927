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

package dev.offheap.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.buffer.BufferPool;
import io.netty.buffer.AbstractReferenceCountedByteBufTest;
import io.netty.buffer.ByteBuf;
import io.netty.util.IllegalReferenceCountException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Netty's reference-counting tests ({@link AbstractReferenceCountedByteBufTest}, which run on a buffer of their
 * own), then the same six on {@link OffheapDirectByteBuf}.
 */
class OffheapReferenceCountedByteBufTest extends AbstractReferenceCountedByteBufTest {
    private static final BufferPool POOL = BufferPool.builder().name("netty-refcnt-test").jmx(false).build();
    private static final OffheapByteBufAllocator ALLOC = new OffheapByteBufAllocator(POOL);

    @AfterAll
    static void closePool() {
        POOL.close();
    }

    @AfterEach
    void nothingLeased() {
        assertThat(POOL.stats().leases()).as("leases left by the test").isZero();
    }

    private static ByteBuf newBuffer() {
        return OffheapDirectByteBuf.lease(ALLOC, 64, Integer.MAX_VALUE);
    }

    /**
     * Netty's test sets the count to {@code Integer.MAX_VALUE} directly; through {@code retain} a real buffer
     * reaches at most {@code Integer.MAX_VALUE >>> 1}, since Netty keeps the count doubled (odd = released).
     */
    @Test
    void offheapRetainOverflow() {
        ByteBuf buf = newBuffer();
        int most = Integer.MAX_VALUE >>> 1;
        buf.retain(most - 1);
        assertThat(buf.refCnt()).isEqualTo(most);
        assertThatThrownBy(buf::retain).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(buf.refCnt()).isEqualTo(most);
        assertThat(buf.release(most)).isTrue();
    }

    @Test
    void offheapRetainOverflow2() {
        ByteBuf buf = newBuffer();
        assertThat(buf.refCnt()).isEqualTo(1);
        assertThatThrownBy(() -> buf.retain(Integer.MAX_VALUE)).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(buf.release()).isTrue();
    }

    @Test
    void offheapReleaseOverflow() {
        ByteBuf buf = newBuffer();
        assertThat(buf.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThatThrownBy(() -> buf.release(Integer.MAX_VALUE)).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void offheapReleaseErrorMessage() {
        ByteBuf buf = newBuffer();
        assertThat(buf.release()).isTrue();
        assertThatThrownBy(() -> buf.release(1)).isInstanceOf(IllegalReferenceCountException.class)
                .hasMessage("refCnt: 0, decrement: 1");
    }

    @Test
    void offheapRetainResurrect() {
        ByteBuf buf = newBuffer();
        assertThat(buf.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThatThrownBy(buf::retain).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void offheapRetainResurrect2() {
        ByteBuf buf = newBuffer();
        assertThat(buf.release()).isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThatThrownBy(() -> buf.retain(2)).isInstanceOf(IllegalReferenceCountException.class);
    }

    @Test
    void leaseGoesBackOnceWhenTheCountReachesZero() {
        long before = POOL.stats().leases();
        ByteBuf buf = newBuffer().retain(2);
        assertThat(POOL.stats().leases()).isEqualTo(before + 1);
        assertThat(buf.release()).isFalse();
        assertThat(buf.release(1)).isFalse();
        assertThat(POOL.stats().leases()).isEqualTo(before + 1);
        assertThat(buf.release()).isTrue();
        assertThat(POOL.stats().leases()).isEqualTo(before);
        assertThatThrownBy(buf::release).isInstanceOf(IllegalReferenceCountException.class);
        assertThat(POOL.stats().leases()).isEqualTo(before);
    }
}
