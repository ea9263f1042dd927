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

import dev.offheap.buffer.BufferPool;
import java.util.List;
import java.util.Locale;

/**
 * A way to get buffers, chosen by name so that the lab can compare them (seed 001's Grizzly switch):
 * {@code heap} ({@code ByteBuffer.allocate}), {@code direct} ({@code allocateDirect}), {@code heap-view} and
 * {@code direct-view} (slices of one large buffer, as Grizzly did), and {@code pool} (a {@link BufferPool}).
 *
 * <p>Every strategy hands out {@link StrategyBuffer}s whose {@code ByteBuffer} is big-endian, as the JDK makes
 * them; only {@code pool} gives memory back at close, the others leave it to the garbage collector. This is
 * the lab's comparison shim, not part of the library: an application takes a {@link BufferPool}.
 */
public interface BufferStrategy extends AutoCloseable {

    /** The names {@link #named(String)} accepts. */
    List<String> NAMES = List.of("heap", "direct", "heap-view", "direct-view", "pool");

    /**
     * The strategy called {@code name}; {@code pool} gets a pool with default settings.
     *
     * @param name one of {@link #NAMES}, in any case
     * @return a new strategy, to close after use
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    static BufferStrategy named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "heap" -> new BufferStrategies.Heap();
            case "direct" -> new BufferStrategies.Direct();
            case "heap-view" -> new BufferStrategies.View(false);
            case "direct-view" -> new BufferStrategies.View(true);
            case "pool" -> new BufferStrategies.Pooled(BufferPool.builder().name("strategy-pool").build());
            default -> throw new IllegalArgumentException(
                    "unknown buffer strategy '" + name + "'; known: " + String.join(", ", NAMES));
        };
    }

    /**
     * The {@code pool} strategy over a pool of your own.
     *
     * @param pool the pool; closing the strategy closes it
     * @return the strategy
     */
    static BufferStrategy of(BufferPool pool) {
        return new BufferStrategies.Pooled(pool);
    }

    /** @return the strategy's name, one of {@link #NAMES} */
    String name();

    /**
     * A buffer of exactly {@code size} bytes, position 0, limit {@code size}, big-endian.
     *
     * @param size the number of bytes
     * @return the buffer, to close after use
     * @throws IllegalArgumentException if {@code size} is negative
     */
    StrategyBuffer acquire(int size);

    @Override
    void close();
}
