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

import dev.offheap.os.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * Run in a child JVM by {@link BadInputTest}: closes a pool while a lease is outstanding, then touches a view
 * of that lease. Prints {@code THREW <exception class>} or {@code NO-THROW}. If the view reaches memory given
 * back to the OS, the JVM may die here of SIGSEGV, which is why this runs in a process of its own.
 *
 * <p>Arguments: {@code default|checked}, {@code system|portable}, {@code segment|bytebuffer}, size,
 * {@code early|late} (views taken before or after close).
 */
public final class CloseWithLeaseChild {
    private CloseWithLeaseChild() {}

    public static void main(String[] args) {
        boolean checked = args[0].equals("checked");
        NativeMemory memory = args[1].equals("portable") ? NativeMemory.portable() : NativeMemory.system();
        boolean segmentView = args[2].equals("segment");
        int size = Integer.parseInt(args[3]);
        boolean early = args[4].equals("early");

        BufferPool pool = BufferPool.builder().name("closing").checked(checked).nativeMemory(memory)
                .leakSampling(0).build();
        BufferLease buffer = pool.acquire(size);
        buffer.segment().fill((byte) 0x5A);
        MemorySegment segment = early ? buffer.segment() : null;
        ByteBuffer bb = early ? buffer.byteBuffer() : null;
        pool.close();
        try {
            if (segmentView) {
                MemorySegment s = early ? segment : buffer.segment();
                byte b = s.get(ValueLayout.JAVA_BYTE, size - 1);
                s.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 1);
                System.out.println("NO-THROW read " + b);
            } else {
                ByteBuffer v = early ? bb : buffer.byteBuffer();
                byte b = v.get(size - 1);
                v.put(size - 1, (byte) 1);
                System.out.println("NO-THROW read " + b);
            }
        } catch (RuntimeException e) {
            System.out.println("THREW " + e.getClass().getName() + ": " + e.getMessage());
        }
        buffer.release(); // harmless after close
        System.out.println("RELEASED");
    }
}
