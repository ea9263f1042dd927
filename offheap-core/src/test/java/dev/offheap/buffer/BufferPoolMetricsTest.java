package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The figures that need a walk over every slot come from a snapshot, which lives for a while. */
class BufferPoolMetricsTest {

    @Test
    void figuresNeedingAWalkComeFromASnapshotAndCountersAreLive() {
        try (BufferPool pool = BufferPool.builder().name("metrics-snapshot").jmx(false).leakSampling(0).build()) {
            BufferPoolMetrics kept = new BufferPoolMetrics(pool, Long.MAX_VALUE);
            Buffer first = pool.acquire(1000);
            assertThat(kept.getBytesInUse()).isEqualTo(1024);
            assertThat(kept.getLeases()).isEqualTo(1);

            Buffer second = pool.acquire(1000);
            Buffer large = pool.acquire(2 << 20);
            assertThat(kept.getBytesInUse()).as("the snapshot is still young").isEqualTo(1024);
            assertThat(kept.getLeases()).isEqualTo(1);
            assertThat(kept.getBytesFromOs()).as("a counter, read live").isEqualTo(64 * 1024 + (2 << 20));
            assertThat(kept.getPeakBytes()).isEqualTo(64 * 1024 + (2 << 20));

            BufferPoolMetrics fresh = new BufferPoolMetrics(pool, 0);
            assertThat(fresh.getBytesInUse()).isEqualTo(2 * 1024 + (2 << 20));
            assertThat(fresh.getLeases()).isEqualTo(3);
            assertThat(fresh.getBytesCached()).as("the rest of the slab")
                    .isEqualTo(fresh.getBytesFromOs() - fresh.getBytesInUse());

            large.release();
            first.release();
            second.release();
            assertThat(fresh.getBytesInUse()).isZero();
            assertThat(fresh.getBytesFromOs()).isEqualTo(64 * 1024);
            assertThat(fresh.getBytesCached()).isEqualTo(64 * 1024);
            assertThat(fresh.getPeakBytes()).isEqualTo(64 * 1024 + (2 << 20));
            assertThat(fresh.getAcquires()).isEqualTo(3);
            assertThat(pool.metrics().getName()).isEqualTo("metrics-snapshot");
        }
    }
}
