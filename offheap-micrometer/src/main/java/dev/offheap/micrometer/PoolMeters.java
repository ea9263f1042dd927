package dev.offheap.micrometer;

import dev.offheap.metrics.PoolMXBean;

/**
 * The meters every pool has, from {@link PoolMXBean}: {@code offheap.pool.from.os}, {@code .in.use},
 * {@code .cached}, {@code .peak} and, when the pool's budget has a limit, {@code .limit} (bytes).
 * {@link BufferPoolMeters} and {@link ChunkPoolMeters} add their own to these.
 */
final class PoolMeters {
    private PoolMeters() {}

    static <T extends PoolMXBean> void bindCommon(TaggedMeters<T> meters, T figures, String heldFromOs,
            String inUse, String cached) {
        meters.bytes("offheap.pool.from.os", heldFromOs, PoolMXBean::getBytesFromOs);
        meters.bytes("offheap.pool.in.use", inUse, PoolMXBean::getBytesInUse);
        meters.bytes("offheap.pool.cached", cached, PoolMXBean::getBytesCached);
        meters.bytes("offheap.pool.peak", "The most bytes ever held from the OS at once", PoolMXBean::getPeakBytes);
        if (figures.getLimitBytes() != Long.MAX_VALUE) {
            meters.bytes("offheap.pool.limit", "The limit of the pool's budget", PoolMXBean::getLimitBytes);
        }
    }
}
