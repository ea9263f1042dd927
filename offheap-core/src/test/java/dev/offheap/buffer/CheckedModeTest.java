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

import dev.offheap.os.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Checked mode: anything kept from a released lease throws, and never reaches memory lent to someone else.
 * Default mode, for contrast: the lease's own methods throw once it is released.
 */
class CheckedModeTest {

    private static BufferPool checkedPool(boolean portable) {
        return BufferPool.builder().name("checked").checked(true).leakSampling(0)
                .nativeMemory(portable ? NativeMemory.portable() : NativeMemory.system()).build();
    }

    @ParameterizedTest(name = "portable memory: {0}")
    @ValueSource(booleans = {false, true})
    void viewsKeptPastReleaseThrowOnEveryAccess(boolean portable) {
        try (BufferPool pool = checkedPool(portable)) {
            BufferLease buffer = pool.acquire(256);
            MemorySegment segment = buffer.segment();
            ByteBuffer bb = buffer.byteBuffer();
            segment.fill((byte) 7);
            assertThat(bb.get(100)).isEqualTo((byte) 7);
            assertThat(buffer.release()).isTrue();

            assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> segment.set(ValueLayout.JAVA_INT, 4, 1)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> segment.fill((byte) 0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.get(0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.put(0, (byte) 1)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.putLong(8, 1L)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.get(new byte[16])).isInstanceOf(IllegalStateException.class);
        }
    }

    @ParameterizedTest(name = "portable memory: {0}")
    @ValueSource(booleans = {false, true})
    void aNewLeaseOfTheSameSizeWorksAndIsNotReachableThroughStaleViews(boolean portable) {
        try (BufferPool pool = checkedPool(portable)) {
            BufferLease old = pool.acquire(512);
            MemorySegment staleSegment = old.segment();
            ByteBuffer staleBuffer = old.byteBuffer();
            long staleAddress = staleSegment.address();
            old.release();

            try (BufferLease fresh = pool.acquire(512)) {
                Patterns.fill(fresh.segment(), 42);
                assertThatThrownBy(() -> staleSegment.fill((byte) 0)).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> staleBuffer.putLong(0, -1L)).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(() -> staleSegment.get(ValueLayout.JAVA_LONG, 0))
                        .isInstanceOf(IllegalStateException.class);
                Patterns.verify(fresh.segment(), 42);
                assertThat(fresh.byteBuffer().position()).isZero();
                assertThat(fresh.byteBuffer().limit()).isEqualTo(512);
                // whether or not the pool lent the same slot again, the stale views reach none of it
                if (fresh.segment().address() == staleAddress) {
                    assertThat(fresh.segment()).isNotSameAs(staleSegment);
                }
            }
        }
    }

    @ParameterizedTest(name = "portable memory: {0}")
    @ValueSource(booleans = {false, true})
    void releasingAStaleHandleAfterTheSlotWasLeasedAgainThrows(boolean portable) {
        try (BufferPool pool = checkedPool(portable)) {
            BufferLease old = pool.acquire(128);
            old.release();
            BufferLease fresh = pool.acquire(128);
            fresh.segment().fill((byte) 3);

            assertThatThrownBy(old::release).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(old::segment).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(old::retain).isInstanceOf(IllegalStateException.class);

            assertThat(fresh.refCount()).as("the new lease is untouched by the stale release").isEqualTo(1);
            assertThat(fresh.segment().get(ValueLayout.JAVA_BYTE, 127)).isEqualTo((byte) 3);
            assertThat(pool.stats().leases()).isEqualTo(1);
            // the slot must not have gone back to the pool: a second lease must not share it
            try (BufferLease other = pool.acquire(128)) {
                assertThat(other.segment().asOverlappingSlice(fresh.segment())).isEmpty();
            }
            assertThat(fresh.release()).isTrue();
            assertThat(pool.stats().leases()).isZero();
        }
    }

    @Test
    void everyCheckedLeaseIsANewObject() {
        try (BufferPool pool = checkedPool(false)) {
            BufferLease first = pool.acquire(64);
            first.release();
            BufferLease second = pool.acquire(64);
            assertThat(second).isNotSameAs(first);
            second.release();
        }
    }

    @Test
    void aViewKeptPastReleaseOnAnotherThreadThrowsThere() throws Exception {
        try (BufferPool pool = checkedPool(false)) {
            BufferLease buffer = pool.acquire(1024);
            MemorySegment segment = buffer.segment();
            buffer.release();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    segment.get(ValueLayout.JAVA_LONG, 0);
                } catch (Throwable e) {
                    thrown.set(e);
                }
            });
            reader.join();
            assertThat(thrown.get()).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void checkedLeasesKeepReferenceCounting() {
        try (BufferPool pool = checkedPool(false)) {
            BufferLease buffer = pool.acquire(300);
            MemorySegment segment = buffer.segment();
            buffer.retain();
            assertThat(buffer.release()).isFalse();
            segment.set(ValueLayout.JAVA_BYTE, 0, (byte) 1); // still live: one reference left
            assertThat(buffer.release()).isTrue();
            assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * What default mode guarantees: once released, every method of the lease but refCount() throws, whether
     * or not its slot was leased again (StaleHandleTest). (Views kept from it are not checked in default mode.)
     */
    @Test
    void defaultModeMethodsOfAReleasedLeaseThrow() {
        try (BufferPool pool = BufferPool.builder().name("default").leakSampling(0).build()) {
            BufferLease buffer = pool.acquire(200);
            buffer.byteBuffer();
            buffer.segment();
            assertThat(buffer.release()).isTrue();

            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(buffer::byteBuffer).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(buffer::retain).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(buffer::release).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(buffer::close).isInstanceOf(IllegalStateException.class);
            assertThat(buffer.refCount()).isZero();
            assertThatThrownBy(buffer::size).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("200 bytes");
        }
    }

    /**
     * Default mode: a view kept past release may reach the slot while its slab lives, but never memory
     * returned to the OS: once trim() unmapped the slab, and for dedicated leases at once, it throws.
     */
    @Test
    void defaultModeStaleViewsNeverReachMemoryGivenBackToTheOs() {
        try (BufferPool pool = BufferPool.builder().name("default").leakSampling(0).build()) {
            BufferLease buffer = pool.acquire(3000);
            MemorySegment segment = buffer.segment();
            ByteBuffer bb = buffer.byteBuffer();
            BufferLease dedicated = pool.acquire(2 << 20);
            MemorySegment dedicatedSegment = dedicated.segment();
            ByteBuffer dedicatedBuffer = dedicated.byteBuffer();

            dedicated.release();
            assertThatThrownBy(() -> dedicatedSegment.get(ValueLayout.JAVA_BYTE, 0))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> dedicatedBuffer.get(0)).isInstanceOf(IllegalStateException.class);

            buffer.release();
            pool.trim();
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.put(0, (byte) 1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void defaultModeReleasedLeaseThrowsWhenReleasedByAnotherThread() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("default").leakSampling(0).build()) {
            BufferLease buffer = pool.acquire(200);
            Thread releaser = Thread.ofPlatform().start(buffer::release);
            releaser.join();
            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(buffer::release).isInstanceOf(IllegalStateException.class);
        }
    }
}
