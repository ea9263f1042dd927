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

/**
 * The pooled sizes: 64 bytes, then four classes per doubling (80, 96, 112, 128, 160, 192, ...), so a request
 * above 64 bytes wastes at most 20 % of its slot (a request of 2^k + 1 bytes gets 1.25 x 2^k), and one of 64
 * bytes or less at most 63 bytes. Every class is a multiple of 16, so every slot is 16-byte aligned.
 */
final class SizeClasses {
    static final int SMALLEST = 64;
    private static final int SMALLEST_SHIFT = 6;

    private final int[] sizes;

    /** Classes up to the one that holds {@code largestPooled} bytes. */
    SizeClasses(int largestPooled) {
        if (largestPooled < SMALLEST) {
            throw new IllegalArgumentException("largest pooled size must be >= " + SMALLEST + ": " + largestPooled);
        }
        int count = indexFor(largestPooled) + 1;
        sizes = new int[count];
        for (int i = 0; i < count; i++) {
            sizes[i] = sizeFor(i);
        }
    }

    int count() {
        return sizes.length;
    }

    int size(int index) {
        return sizes[index];
    }

    int largest() {
        return sizes[sizes.length - 1];
    }

    /** The class for {@code size} bytes, {@code 0 <= size <= largest()}. */
    int indexOf(int size) {
        return indexFor(size);
    }

    private static int indexFor(int size) {
        if (size <= SMALLEST) {
            return 0;
        }
        int s = size - 1;
        int log = 31 - Integer.numberOfLeadingZeros(s);
        int group = log - SMALLEST_SHIFT;
        int step = ((s - (1 << log)) >>> (log - 2)) + 1;
        return 4 * group + step;
    }

    private static int sizeFor(int index) {
        if (index == 0) {
            return SMALLEST;
        }
        int group = (index - 1) / 4;
        int step = (index - 1) % 4 + 1;
        int base = SMALLEST << group;
        return base + step * (base / 4);
    }
}
