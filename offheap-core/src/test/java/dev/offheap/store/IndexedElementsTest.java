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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pieces of the typed accessors' one-check path: a widened segment has the array's address and arena, so it
 * ends with the array, and one made from a segment that has already ended has ended too; the handle reaches
 * element {@code i} at byte {@code i * size} and refuses, before any memory, an index past its constant count.
 */
class IndexedElementsTest {
    @Test
    void aWidenedSegmentHasTheAddressAndTheArenaOfTheArraysSegment() {
        MemorySegment widened;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment whole = arena.allocate(64, 8);
            whole.setAtIndex(ValueLayout.JAVA_LONG, 3, 42);
            widened = IndexedElements.widen(whole);
            assertThat(widened.address()).isEqualTo(whole.address());
            assertThat(widened.byteSize()).isEqualTo(IndexedElements.SPAN);
            assertThat(widened.getAtIndex(ValueLayout.JAVA_LONG, 3)).isEqualTo(42);
        }
        MemorySegment ended = widened;
        assertThatThrownBy(() -> ended.get(ValueLayout.JAVA_LONG, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSegmentThatHasEndedWidensToOneThatHasEndedToo() {
        MemorySegment whole;
        try (Arena arena = Arena.ofShared()) {
            whole = arena.allocate(64, 8);
        }
        MemorySegment widened = IndexedElements.widen(whole);
        assertThat(widened.byteSize()).isEqualTo(IndexedElements.SPAN);
        assertThatThrownBy(() -> widened.get(ValueLayout.JAVA_LONG, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @ParameterizedTest
    @EnumSource(value = ElementType.class, names = {"SHORT", "INT", "LONG", "FLOAT", "DOUBLE"})
    void theHandleReachesElementIAtByteITimesTheSizeAndRefusesAnIndexPastItsCount(ElementType type) {
        ValueLayout layout = type.layout();
        Object one = switch (type) {
            case SHORT -> (short) 1;
            case INT -> 1;
            case LONG -> 1L;
            case FLOAT -> 1f;
            case DOUBLE -> 1d;
            case BYTE -> throw new AssertionError("bytes take no handle");
        };
        VarHandle handle = IndexedElements.handle(layout);
        try (Arena arena = Arena.ofConfined()) {
            long size = layout.byteSize();
            MemorySegment whole = arena.allocate(size * 5, 8).fill((byte) 0);
            MemorySegment widened = IndexedElements.widen(whole);
            handle.set(widened, 0L, 3L, one);
            assertThat(handle.get(widened, 0L, 3L)).isEqualTo(one);
            assertThat(whole.asSlice(0, 3 * size).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
            assertThat(whole.asSlice(3 * size, size).toArray(ValueLayout.JAVA_BYTE)).isNotEqualTo(new byte[(int) size]);
            assertThat(whole.asSlice(4 * size, size).toArray(ValueLayout.JAVA_BYTE)).containsOnly((byte) 0);
            long count = IndexedElements.SPAN / layout.byteSize();
            assertThat(count - 1).isGreaterThanOrEqualTo(IndexedElements.INDEXABLE);
            assertThatThrownBy(() -> handle.get(widened, 0L, count)).isInstanceOf(IndexOutOfBoundsException.class);
            assertThatThrownBy(() -> handle.get(widened, 0L, -1L)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }
}
