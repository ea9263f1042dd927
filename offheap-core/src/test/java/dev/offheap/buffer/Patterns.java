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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Fills memory with a pattern unique to one lease (and to each position in it), and checks it. */
final class Patterns {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    private Patterns() {}

    static long word(long id, long offset) {
        return (id * 0x9E37_79B9_7F4A_7C15L) ^ (offset * 0xC2B2_AE3D_27D4_EB4FL) ^ 0x5555_5555_5555_5555L;
    }

    static byte tailByte(long id, long offset) {
        return (byte) word(id, offset);
    }

    static void fill(MemorySegment segment, long id) {
        long size = segment.byteSize();
        long words = size & ~7L;
        for (long i = 0; i < words; i += 8) {
            segment.set(LONG, i, word(id, i));
        }
        for (long i = words; i < size; i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, tailByte(id, i));
        }
    }

    static void verify(MemorySegment segment, long id) {
        long size = segment.byteSize();
        long words = size & ~7L;
        for (long i = 0; i < words; i += 8) {
            long found = segment.get(LONG, i);
            if (found != word(id, i)) {
                throw new AssertionError("lease " + id + " of " + size + " bytes at 0x"
                        + Long.toHexString(segment.address()) + ": offset " + i + " holds 0x"
                        + Long.toHexString(found) + ", expected 0x" + Long.toHexString(word(id, i))
                        + " (someone else wrote into this lease's memory)");
            }
        }
        for (long i = words; i < size; i++) {
            byte found = segment.get(ValueLayout.JAVA_BYTE, i);
            if (found != tailByte(id, i)) {
                throw new AssertionError("lease " + id + " of " + size + " bytes: byte " + i + " holds " + found
                        + ", expected " + tailByte(id, i));
            }
        }
    }
}
