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

package dev.offheap.lab.experiment.server;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A buffer from a {@link BufferStrategy}: its memory as a {@code ByteBuffer} and a {@code MemorySegment}
 * until closed. Closing gives a pooled buffer back; an unpooled one is then left to the garbage collector.
 * Every method throws {@link IllegalStateException} after the close, and so does a second close.
 */
public interface StrategyBuffer extends AutoCloseable {

    /**
     * @return the memory as a big-endian {@code ByteBuffer}, the same object on every call
     * @throws IllegalStateException if the buffer was closed
     */
    ByteBuffer byteBuffer();

    /**
     * @return the memory as a segment of exactly {@link #size()} bytes
     * @throws IllegalStateException if the buffer was closed
     */
    MemorySegment segment();

    /**
     * @return the number of bytes asked for
     * @throws IllegalStateException if the buffer was closed
     */
    int size();

    /**
     * Ends the buffer.
     *
     * @throws IllegalStateException if it was already closed
     */
    @Override
    void close();
}
