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

import java.nio.file.Path;

/**
 * Run in a child JVM by {@link KillDuringWriteTest}, which kills it: creates a file of longs, then forever
 * writes the next block ({@link #value}), forces, and prints {@code forced <block>}; whenever the next block
 * does not fit it grows the file by a few blocks first and prints {@code grew <length>}.
 *
 * <p>Arguments: file, elements per block, blocks to start with, blocks to grow by.
 */
public final class MappedWriterChild {
    private MappedWriterChild() {}

    /** Element {@code i} of block {@code block}; never zero, so a block that was not written shows. */
    static long value(long block, long i) {
        return (block << 32) | (i + 1);
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        long block = Long.parseLong(args[1]);
        long initial = Long.parseLong(args[2]);
        long step = Long.parseLong(args[3]);
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, initial * block)) {
            LongArray longs = array.longs();
            System.out.println("created " + array.length());
            for (long b = 0; ; b++) {
                if ((b + 1) * block > array.length()) {
                    array.grow(array.length() + step * block);
                    longs.close();
                    longs = array.longs();
                    System.out.println("grew " + array.length());
                }
                for (long i = 0; i < block; i++) {
                    longs.set(b * block + i, value(b, i));
                }
                array.force();
                System.out.println("forced " + b);
            }
        }
    }
}
