package dev.offheap.buffer;

import java.util.List;
import java.util.Locale;

/**
 * A way to get buffers, chosen by name so that an application or the lab can compare them (seed 001's
 * Grizzly switch): {@code heap} ({@code ByteBuffer.allocate}), {@code direct} ({@code allocateDirect}),
 * {@code heap-view} and {@code direct-view} (slices of one large buffer, as Grizzly did), and {@code pool}
 * (a {@link BufferPool}).
 *
 * {@snippet :
 * try (BufferStrategy strategy = BufferStrategy.named(config.get("buffers"))) {
 *     try (Buffer b = strategy.acquire(8192)) { ... }
 * }
 * }
 *
 * Every strategy hands out {@link Buffer} leases whose {@code ByteBuffer} is big-endian, as the JDK makes
 * them (the pool too, unless built with another byte order); only {@code pool} gives memory back
 * at release, the others leave it to the garbage collector.
 */
public sealed interface BufferStrategy extends AutoCloseable
        permits BufferStrategies.Heap, BufferStrategies.Direct, BufferStrategies.View, BufferStrategies.Pooled {

    /** The names {@link #named(String)} accepts. */
    List<String> NAMES = List.of("heap", "direct", "heap-view", "direct-view", "pool");

    /**
     * The strategy called {@code name}; {@code pool} gets a pool with default settings.
     *
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

    /** The {@code pool} strategy over a pool of your own (closing the strategy closes the pool). */
    static BufferStrategy of(BufferPool pool) {
        return new BufferStrategies.Pooled(pool);
    }

    String name();

    /** A lease of exactly {@code size} bytes, position 0, limit {@code size}, big-endian. */
    Buffer acquire(int size);

    @Override
    void close();
}
