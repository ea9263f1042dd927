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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.buffer.BufferPool;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class BufferStrategyTest {
    private static final int[] SIZES = {0, 1, 8, 100, 4096, 65_536, 1 << 20, (4 << 20) + 1};

    static Stream<String> names() {
        return BufferStrategy.NAMES.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void everyStrategyGivesBigEndianBuffersOfTheRightSizeAtPositionZero(String name) {
        try (BufferStrategy strategy = BufferStrategy.named(name)) {
            assertThat(strategy.name()).isEqualTo(name);
            for (int size : SIZES) {
                StrategyBuffer buffer = strategy.acquire(size);
                assertThat(buffer.size()).isEqualTo(size);
                assertThat(buffer.segment().byteSize()).isEqualTo(size);
                ByteBuffer bb = buffer.byteBuffer();
                assertThat(bb.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
                assertThat(bb.position()).isZero();
                assertThat(bb.limit()).isEqualTo(size);
                assertThat(bb.capacity()).isEqualTo(size);
                buffer.close();
                assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void segmentAndByteBufferSeeTheSameBytes(String name) {
        try (BufferStrategy strategy = BufferStrategy.named(name)) {
            for (int size : new int[] {8, 100, 4096}) {
                try (StrategyBuffer buffer = strategy.acquire(size)) {
                    MemorySegment segment = buffer.segment();
                    ByteBuffer bb = buffer.byteBuffer();
                    for (int i = 0; i < size; i++) {
                        segment.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
                    }
                    for (int i = 0; i < size; i++) {
                        assertThat(bb.get(i)).isEqualTo((byte) (i * 31 + 7));
                    }
                    bb.putLong(0, 0x1122_3344_5566_7788L);
                    assertThat(segment.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 0))
                            .isEqualTo(0x1122_3344_5566_7788L);
                    bb.put(size - 1, (byte) -3);
                    assertThat(segment.get(ValueLayout.JAVA_BYTE, size - 1)).isEqualTo((byte) -3);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap-view", "direct-view"})
    void viewStrategiesReturnDistinctNonOverlappingSlices(String name) {
        try (BufferStrategy strategy = BufferStrategy.named(name)) {
            List<StrategyBuffer> buffers = new ArrayList<>();
            // enough to fill more than one 4 MiB slab
            for (int i = 0; i < 200; i++) {
                buffers.add(strategy.acquire(i % 3 == 0 ? 0 : 1000 + 97 * i));
            }
            for (int i = 0; i < buffers.size(); i++) {
                buffers.get(i).segment().fill((byte) i);
            }
            for (int i = 0; i < buffers.size(); i++) {
                byte expected = (byte) i;
                assertThat(buffers.get(i).segment().elements(ValueLayout.JAVA_BYTE))
                        .allMatch(b -> b.get(ValueLayout.JAVA_BYTE, 0) == expected);
                for (int j = i + 1; j < buffers.size(); j++) {
                    assertThat(buffers.get(i).segment().asOverlappingSlice(buffers.get(j).segment()))
                            .as("slices %d and %d", i, j).isEmpty();
                }
                assertThat(buffers.get(i).byteBuffer()).isNotSameAs(buffers.get((i + 1) % buffers.size()).byteBuffer());
            }
            buffers.forEach(StrategyBuffer::close);
        }
    }

    @Test
    void viewStrategiesRejectNegativeSizes() {
        for (String name : List.of("heap-view", "direct-view")) {
            try (BufferStrategy strategy = BufferStrategy.named(name)) {
                assertThatThrownBy(() -> strategy.acquire(-1)).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void namesAreCaseInsensitive() {
        try (BufferStrategy strategy = BufferStrategy.named("HEAP")) {
            assertThat(strategy.name()).isEqualTo("heap");
        }
    }

    @Test
    void anUnknownNameIsRejectedListingTheKnownOnes() {
        assertThatThrownBy(() -> BufferStrategy.named("offheap-magic"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("offheap-magic")
                .satisfies(e -> {
                    for (String known : BufferStrategy.NAMES) {
                        assertThat(e.getMessage()).contains(known);
                    }
                });
    }

    @Test
    void thePoolStrategyUsesAndClosesItsPool() {
        BufferPool pool = BufferPool.builder().name("mine").build();
        BufferStrategy strategy = BufferStrategy.of(pool);
        assertThat(strategy.name()).isEqualTo("pool");
        StrategyBuffer buffer = strategy.acquire(100);
        assertThat(pool.stats().leases()).isEqualTo(1);
        buffer.close();
        assertThat(pool.stats().leases()).isZero();
        strategy.close();
        assertThat(pool.isClosed()).isTrue();
    }

    @Test
    void closedUnpooledBuffersRefuseASecondCloseAndEveryMethodNamingTheirSizeAndStrategy() {
        try (BufferStrategy strategy = BufferStrategy.named("heap")) {
            StrategyBuffer buffer = strategy.acquire(100);
            assertThat(buffer.toString()).isEqualTo("StrategyBuffer[strategy=heap, size=100]");
            buffer.close();
            assertThatThrownBy(buffer::close).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(buffer::byteBuffer).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(buffer::size).isInstanceOf(IllegalStateException.class)
                    .hasMessage("cannot ask the size of buffer of 100 bytes from strategy heap: it was already closed");
            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("cannot use buffer of 100 bytes from strategy heap");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"heap-view", "direct-view"})
    void viewStrategiesGiveDirectBuffersOnlyWhenNamedSo(String name) {
        boolean direct = name.equals("direct-view");
        try (BufferStrategy strategy = BufferStrategy.named(name)) {
            // a slice of a slab, and a request above the slab size with a buffer of its own
            for (int size : new int[] {100, BufferStrategies.VIEW_SLAB + 1}) {
                StrategyBuffer buffer = strategy.acquire(size);
                assertThat(buffer.byteBuffer().isDirect()).as("%d bytes", size).isEqualTo(direct);
                assertThat(buffer.segment().isNative()).as("%d bytes", size).isEqualTo(direct);
                buffer.close();
            }
        }
    }

    /** Heap views show their slab: a slice shares the slab's array, at its offset in the slab. */
    @Test
    void aRequestOfExactlyOneSlabIsCutFromANewSlabAndTheNextOneFromAnother() {
        int slab = BufferStrategies.VIEW_SLAB;
        try (BufferStrategy strategy = BufferStrategy.named("heap-view")) {
            ByteBuffer small = strategy.acquire(100).byteBuffer();
            ByteBuffer whole = strategy.acquire(slab).byteBuffer();
            ByteBuffer next = strategy.acquire(100).byteBuffer();
            assertThat(whole.array()).hasSize(slab).isNotSameAs(small.array());
            assertThat(whole.arrayOffset()).isZero();
            assertThat(next.array()).as("the slab of the whole-slab request is used up: a third slab")
                    .isNotSameAs(small.array()).isNotSameAs(whole.array());
            assertThat(next.arrayOffset()).isZero();
        }
    }

    @Test
    void aRequestThatFillsTheRestOfASlabExactlyIsCutFromIt() {
        int slab = BufferStrategies.VIEW_SLAB;
        try (BufferStrategy strategy = BufferStrategy.named("heap-view")) {
            ByteBuffer first = strategy.acquire(slab - 100).byteBuffer();
            ByteBuffer rest = strategy.acquire(100).byteBuffer();
            assertThat(rest.array()).isSameAs(first.array());
            assertThat(rest.arrayOffset()).isEqualTo(slab - 100);
            ByteBuffer next = strategy.acquire(1).byteBuffer();
            assertThat(next.array()).as("the slab is used up").isNotSameAs(first.array());
        }
    }
}
