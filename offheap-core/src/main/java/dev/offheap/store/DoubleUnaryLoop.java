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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.DoubleUnaryOperator;

/** {@code t[i] = f(s[i])} over a run: the loop of {@code DoubleArray.apply} with one array, copied per function class ({@link LoopCopies}). */
final class DoubleUnaryLoop implements Runs.Two {
    private static final ValueLayout.OfDouble E = ValueLayout.JAVA_DOUBLE;
    private final DoubleUnaryOperator f;

    DoubleUnaryLoop(DoubleUnaryOperator f) {
        this.f = f;
    }

    @Override
    public void run(MemorySegment t, long tFirst, MemorySegment s, long sFirst, long count) {
        DoubleUnaryOperator f = this.f;
        for (long i = 0; i < count; i++) {
            t.setAtIndex(E, tFirst + i, f.applyAsDouble(s.getAtIndex(E, sFirst + i)));
        }
    }
}
