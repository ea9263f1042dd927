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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one reference-counting rule of {@link RefCounted}, checked on every kind of handle that has it. */
class RefCountedContractTest {
    private static final BufferPool BUFFERS = BufferPool.builder().name("contract").build();
    private static final ChunkPool STORE = ChunkPool.builder().name("contract").build();

    @AfterAll
    static void close() {
        BUFFERS.close();
        STORE.close();
    }

    static Stream<Arguments> handles() {
        return Stream.of(
                Arguments.of("pooled lease", (Function<Integer, RefCounted>) BUFFERS::acquire),
                Arguments.of("dedicated lease", (Function<Integer, RefCounted>) n -> BUFFERS.acquire(8 << 20)),
                Arguments.of("double array", (Function<Integer, RefCounted>) n -> STORE.doubles(n)),
                Arguments.of("short array", (Function<Integer, RefCounted>) n -> STORE.shorts(n)),
                Arguments.of("byte array", (Function<Integer, RefCounted>) n -> STORE.bytes(n)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("handles")
    void startsAtOneAndTheReleaseOfTheLastReferenceAloneSaysItGaveTheMemoryBack(String kind,
            Function<Integer, RefCounted> make) {
        RefCounted handle = make.apply(100);
        assertThat(handle.refCount()).isEqualTo(1);
        assertThat(handle.retain()).isSameAs(handle);
        assertThat(handle.refCount()).isEqualTo(2);
        assertThat(handle.release()).isFalse();
        assertThat(handle.refCount()).isEqualTo(1);
        assertThat(handle.release()).isTrue();
        assertThat(handle.refCount()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("handles")
    void closeIsReleaseAndASecondOneIsADoubleRelease(String kind, Function<Integer, RefCounted> make) {
        RefCounted handle = make.apply(100);
        handle.retain();
        handle.close();
        assertThat(handle.refCount()).isEqualTo(1);
        handle.close();
        assertThat(handle.refCount()).isZero();
        assertThatThrownBy(handle::close).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(handle::release).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(handle::retain).isInstanceOf(IllegalStateException.class);
        assertThat(handle.refCount()).isZero();
    }
}
