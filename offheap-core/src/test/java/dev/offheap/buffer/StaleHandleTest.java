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
import java.lang.foreign.ValueLayout;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A handle whose lease ended can never act on a later lease of the same slot, in every mode: each lease is a
 * handle of its own, and every method of a released handle but {@code refCount()} throws, naming the pool
 * and the size.
 */
class StaleHandleTest {

    static Stream<Arguments> pools() {
        return Stream.of(
                Arguments.of("default", (java.util.function.Supplier<BufferPool>) () ->
                        BufferPool.builder().name("stale-default").leakSampling(0).build()),
                Arguments.of("default, every lease leak-tracked", (java.util.function.Supplier<BufferPool>) () ->
                        BufferPool.builder().name("stale-tracked").leakSampling(1).build()),
                Arguments.of("no thread caches", (java.util.function.Supplier<BufferPool>) () ->
                        BufferPool.builder().name("stale-nocache").threadCaches(0).leakSampling(0).build()),
                Arguments.of("portable memory", (java.util.function.Supplier<BufferPool>) () ->
                        BufferPool.builder().name("stale-portable").nativeMemory(NativeMemory.portable())
                                .leakSampling(0).build()),
                Arguments.of("checked", (java.util.function.Supplier<BufferPool>) () ->
                        BufferPool.builder().name("stale-checked").checked(true).leakSampling(0).build()),
                Arguments.of("every lease sampled for use after release",
                        (java.util.function.Supplier<BufferPool>) () -> BufferPool.builder()
                                .name("stale-sampled").useAfterReleaseSampling(1).leakSampling(0).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void aSecondReleaseOfAStaleHandleThrowsAndLeavesTheNextLeaseAlone(String mode,
            java.util.function.Supplier<BufferPool> make) {
        for (int size : new int[] {100, 1024, 16 * 1024, 2 << 20}) {
            try (BufferPool pool = make.get()) {
                BufferLease b1 = pool.acquire(size);
                assertThat(b1.release()).isTrue();
                BufferLease b2 = pool.acquire(size);
                b2.segment().fill((byte) 9);

                assertThat(b2).as("a new lease is a new handle").isNotSameAs(b1);
                assertThatThrownBy(b1::release).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(pool.name()).hasMessageContaining(size + " bytes")
                        .hasMessageContaining("released");
                assertThatThrownBy(b1::close).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(b1::retain).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(pool.name());
                assertThatThrownBy(b1::segment).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(b1::byteBuffer).isInstanceOf(IllegalStateException.class);
                assertThatThrownBy(b1::size).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining(pool.name());
                assertThat(b1.refCount()).isZero();

                assertThat(b2.refCount()).as(mode + ": the new lease keeps its reference").isEqualTo(1);
                assertThat(b2.segment().get(ValueLayout.JAVA_BYTE, size - 1)).isEqualTo((byte) 9);
                // the slot did not go back: another lease of the same size does not overlap b2
                try (BufferLease b3 = pool.acquire(size)) {
                    assertThat(b3.segment().asOverlappingSlice(b2.segment())).isEmpty();
                }
                assertThat(b2.release()).isTrue();
                assertThat(pool.stats().leases()).isZero();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void aStaleHandleReleasedOnAnotherThreadThrowsThere(String mode, java.util.function.Supplier<BufferPool> make)
            throws Exception {
        try (BufferPool pool = make.get()) {
            BufferLease b1 = pool.acquire(512);
            b1.release();
            BufferLease b2 = pool.acquire(512);
            Throwable[] thrown = new Throwable[1];
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    b1.release();
                } catch (Throwable e) {
                    thrown[0] = e;
                }
            });
            t.join();
            assertThat(thrown[0]).isInstanceOf(IllegalStateException.class);
            assertThat(b2.refCount()).isEqualTo(1);
            b2.release();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void theByteBufferOfAStaleHandleIsNotTheNextLeasesByteBuffer(String mode,
            java.util.function.Supplier<BufferPool> make) {
        try (BufferPool pool = make.get()) {
            BufferLease b1 = pool.acquire(256);
            var stale = b1.byteBuffer();
            b1.release();
            try (BufferLease b2 = pool.acquire(256)) {
                var fresh = b2.byteBuffer();
                assertThat(fresh).isNotSameAs(stale);
                assertThat(fresh.position()).isZero();
                assertThat(fresh.limit()).isEqualTo(256);
            }
        }
    }
}
