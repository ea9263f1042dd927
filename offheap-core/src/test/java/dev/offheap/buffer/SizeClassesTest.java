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

import java.util.Random;
import org.junit.jupiter.api.Test;

class SizeClassesTest {
    private static final int MiB = 1 << 20;
    private final SizeClasses classes = new SizeClasses(MiB);

    @Test
    void everySizeUpTo70000GetsTheSmallestClassThatHoldsIt() {
        for (int size = 0; size <= 70_000; size++) {
            checkSize(size);
        }
    }

    @Test
    void aSampleOfSizesUpTo1MiB() {
        Random random = new Random(1);
        for (int i = 0; i < 200_000; i++) {
            checkSize(70_000 + random.nextInt(MiB - 70_000 + 1));
        }
        for (int shift = 6; shift <= 20; shift++) {
            for (int delta = -2; delta <= 2; delta++) {
                int size = (1 << shift) + delta;
                if (size <= MiB) {
                    checkSize(size);
                }
            }
        }
        checkSize(MiB);
    }

    private void checkSize(int size) {
        int index = classes.indexOf(size);
        assertThat(index).as("index of %d", size).isBetween(0, classes.count() - 1);
        int slot = classes.size(index);
        if (slot < size) {
            throw new AssertionError("class " + index + " of " + slot + " bytes is too small for " + size);
        }
        if (index > 0 && classes.size(index - 1) >= size) {
            throw new AssertionError(size + " bytes get class " + slot + " but class " + classes.size(index - 1)
                    + " already holds them");
        }
        if (size > SizeClasses.SMALLEST && (slot - size) * 5L > slot) {
            throw new AssertionError(size + " bytes in a slot of " + slot + " waste more than 20 % of it");
        }
        if (size <= SizeClasses.SMALLEST && slot - size > 63 && size > 0) {
            throw new AssertionError(size + " bytes waste more than 63 bytes in a slot of " + slot);
        }
    }

    @Test
    void classesAreIncreasingMultiplesOf16() {
        assertThat(classes.size(0)).isEqualTo(64);
        for (int i = 0; i < classes.count(); i++) {
            assertThat(classes.size(i) % 16).as("class %d", i).isZero();
            assertThat(classes.indexOf(classes.size(i))).as("a class size maps to its own class").isEqualTo(i);
            if (i > 0) {
                assertThat(classes.size(i)).isGreaterThan(classes.size(i - 1));
                // at most 25 % larger than the one before: four classes per doubling
                assertThat(classes.size(i) * 4L).isLessThanOrEqualTo(classes.size(i - 1) * 5L);
            }
        }
        assertThat(classes.largest()).isEqualTo(MiB);
        assertThat(classes.size(classes.count() - 1)).isEqualTo(classes.largest());
    }

    @Test
    void theDocumentedFirstClasses() {
        int[] expected = {64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 448, 512};
        for (int i = 0; i < expected.length; i++) {
            assertThat(classes.size(i)).isEqualTo(expected[i]);
        }
        assertThat(classes.size(classes.indexOf(65))).isEqualTo(80);
        assertThat(classes.size(classes.indexOf(129))).isEqualTo(160);
    }

    @Test
    void theLargestClassHoldsTheLargestPooledSize() {
        for (int largest : new int[] {64, 65, 100, 1000, 4096, 5000, 65_536, 100_000, MiB, 3 * MiB + 7, 64 * MiB}) {
            SizeClasses c = new SizeClasses(largest);
            assertThat(c.largest()).as("largest class for %d", largest).isGreaterThanOrEqualTo(largest);
            if (c.count() > 1) {
                assertThat(c.size(c.count() - 2)).isLessThan(largest);
            }
            assertThat(c.indexOf(largest)).isEqualTo(c.count() - 1);
        }
    }

    @Test
    void largestBelowTheSmallestClassIsRejected() {
        assertThatThrownBy(() -> new SizeClasses(63)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPoolHandsOutSlotsOfTheClassSize() {
        try (BufferPool pool = BufferPool.builder().build()) {
            for (int size : new int[] {0, 1, 64, 65, 81, 1000, 4097, 70_000, MiB}) {
                try (BufferLease b = pool.acquire(size)) {
                    assertThat(b.size()).isEqualTo(size);
                    int slot = classes.size(classes.indexOf(size));
                    assertThat(pool.stats().bytesInUse()).as("slot bytes of a lease of %d", size).isEqualTo(slot);
                }
            }
        }
    }
}
