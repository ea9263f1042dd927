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
import java.util.function.DoubleBinaryOperator;

/** {@code t[i] = f(s[i], u[i])} over a run: the loop of {@code DoubleArray.apply} with two arrays, copied per function class ({@link LoopCopies}). */
final class DoubleBinaryLoop implements Runs.Three {
    private static final ValueLayout.OfDouble E = ValueLayout.JAVA_DOUBLE;
    private final DoubleBinaryOperator f;

    DoubleBinaryLoop(DoubleBinaryOperator f) {
        this.f = f;
    }

    @Override
    public void run(MemorySegment t, long tFirst, MemorySegment s, long sFirst, MemorySegment u, long uFirst, long count) {
        DoubleBinaryOperator f = this.f;
        for (long i = 0; i < count; i++) {
            t.setAtIndex(E, tFirst + i, f.applyAsDouble(s.getAtIndex(E, sFirst + i), u.getAtIndex(E, uFirst + i)));
        }
    }
}
