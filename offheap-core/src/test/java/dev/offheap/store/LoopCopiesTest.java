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

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Each class of function gets a loop class of its own, made once; a function class that cannot gets the plain loop. */
class LoopCopiesTest {
    private static final LoopCopies<DoubleUnaryOperator, Runs.Two> COPIES =
            new LoopCopies<>(DoubleUnaryLoop.class, DoubleUnaryOperator.class, DoubleUnaryLoop::new);

    @Test
    void eachFunctionClassHasAHiddenLoopClassOfItsOwn() {
        DoubleUnaryOperator plusOne = v -> v + 1;
        DoubleUnaryOperator root = Math::sqrt;
        Class<?> first = COPIES.loopFor(plusOne).getClass();
        Class<?> second = COPIES.loopFor(root).getClass();
        assertThat(first.isHidden()).isTrue();
        assertThat(second.isHidden()).isTrue();
        assertThat(first).isNotEqualTo(second).isNotEqualTo(DoubleUnaryLoop.class);
        assertThat(first.getPackageName()).isEqualTo(DoubleUnaryLoop.class.getPackageName());
        Class<?>[] scaled = new Class<?>[2];
        for (int k = 0; k < 2; k++) { // one lambda expression: one class, whatever it captures
            double factor = k + 2;
            scaled[k] = COPIES.loopFor(v -> v * factor).getClass();
        }
        assertThat(scaled[0]).isEqualTo(scaled[1]).isNotEqualTo(first);
    }

    @Test
    void theCopiesComputeWhatThePlainLoopComputes() {
        try (ChunkPool pool = ChunkPool.builder().name("copies").chunkSize(64 << 10).portable(true).jmx(false).build();
             DoubleArray a = pool.doubles(100_000);
             DoubleArray b = pool.doubles(100_000)) {
            a.apply(a, v -> 1.5);
            b.apply(a, v -> v * 2);
            b.apply(b, a, Math::pow);
            assertThat(b.toArray(0, 100_000)).containsOnly(Math.pow(3, 1.5));
        }
    }
}
