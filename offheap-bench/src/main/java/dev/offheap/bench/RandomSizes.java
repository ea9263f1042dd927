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

package dev.offheap.bench;

import java.util.SplittableRandom;

/**
 * A fixed table of {@value #COUNT} request sizes, log-uniform from {@value #MIN} B to {@value #MAX} B: the
 * exponent uniform in [6, 16), then the size uniform within that doubling, capped at {@value #MAX}. Drawn
 * from a fixed seed, so every fork and every allocator asks for the same sizes in the same order.
 */
final class RandomSizes {
    static final int COUNT = 4096;
    static final int MIN = 64;
    static final int MAX = 65536;
    private static final long SEED = 0x5EED_0015L;

    private RandomSizes() {}

    /** A new copy of the table; index it with {@code i & (COUNT - 1)}. */
    static int[] table() {
        SplittableRandom random = new SplittableRandom(SEED);
        int[] sizes = new int[COUNT];
        for (int i = 0; i < COUNT; i++) {
            int low = 1 << (6 + random.nextInt(10));
            sizes[i] = Math.min(low + random.nextInt(low + 1), MAX);
        }
        return sizes;
    }
}
