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

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** A lease's {@code ByteBuffer} keeps ByteBuffer's contract: big-endian, as {@code allocateDirect}'s. */
class ByteOrderTest {

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {16, 1024, 64 * 1024, 2 << 20})
    void everyFreshViewIsBigEndianLikeAllocateDirect(int size) {
        for (boolean checked : new boolean[] {false, true}) {
            try (BufferPool pool = BufferPool.builder().checked(checked).leakSampling(1).build()) {
                for (int round = 0; round < 3; round++) {
                    try (BufferLease buffer = pool.acquire(size)) {
                        ByteBuffer bb = buffer.byteBuffer();
                        assertThat(bb.order()).isEqualTo(ByteBuffer.allocateDirect(1).order())
                                .isEqualTo(ByteOrder.BIG_ENDIAN);
                        bb.putInt(1);
                        assertThat(buffer.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 3)).isEqualTo((byte) 1);
                        assertThat(buffer.segment().get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0)).isZero();
                        bb.order(ByteOrder.LITTLE_ENDIAN); // a caller's change lasts for its lease only
                    }
                }
            }
        }
    }

    @Test
    void nativeOrderOnlyWhenAskedFor() {
        try (BufferPool pool = BufferPool.builder().byteOrder(ByteOrder.nativeOrder()).build()) {
            for (int size : new int[] {64, 4096, 2 << 20}) {
                try (BufferLease buffer = pool.acquire(size)) {
                    assertThat(buffer.byteBuffer().order()).isEqualTo(ByteOrder.nativeOrder());
                }
            }
        }
        assertThatThrownBy(() -> BufferPool.builder().byteOrder(null)).isInstanceOf(NullPointerException.class);
    }
}
