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

import dev.offheap.suite.Waits;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Each kind of special lease does its own job only: a lease tracked for leaks records no sites, a lease
 * sampled for use after release or a checked one is not watched for leaks, and a pool that samples nothing
 * watches nothing, with or without a thread cache.
 */
class SamplingKindsTest {

    @Test
    void aLeaseTrackedForLeaksOnlyRecordsNoSites() {
        try (BufferPool pool = BufferPool.builder().name("leaks-only").leakSampling(1).useAfterReleaseSampling(0)
                .jmx(false).build()) {
            BufferLease buffer = pool.acquire(100);
            assertThat(pool.stats().leaksWatched()).isEqualTo(1);
            buffer.release();
            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class)
                    .hasMessageEndingWith("it was already released (a double release, or use after release)")
                    .hasNoCause();
        }
    }

    @Test
    void aLeaseSampledForUseAfterReleaseOnlyIsNotWatchedForLeaks() {
        try (BufferPool pool = BufferPool.builder().name("use-after-release-only").leakSampling(0)
                .useAfterReleaseSampling(1).jmx(false).build()) {
            BufferLease buffer = pool.acquire(100);
            assertThat(pool.stats().leaksWatched()).isZero();
            buffer.release();
            assertThatThrownBy(buffer::segment).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("acquired by thread");
        }
    }

    @Test
    void aCheckedLeaseIsNotWatchedForLeaksUnlessSampled() {
        try (BufferPool pool = BufferPool.builder().name("checked-untracked").checked(true).leakSampling(0)
                .jmx(false).build()) {
            BufferLease buffer = pool.acquire(100);
            assertThat(pool.stats().leaksWatched()).isZero();
            buffer.release();
        }
    }

    @Test
    void withoutThreadCachesEveryLeaseIsTrackedAtIntervalOneAndNoneAtZero() {
        try (BufferPool pool = BufferPool.builder().name("uncached-untracked").threadCaches(0).leakSampling(0)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            BufferLease buffer = pool.acquire(100);
            assertThat(buffer).isExactlyInstanceOf(PooledBuffer.class);
            assertThat(pool.stats().leaksWatched()).isZero();
            buffer.release();
        }
        try (BufferPool pool = BufferPool.builder().name("uncached-tracked").threadCaches(0).leakSampling(1)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            BufferLease first = pool.acquire(100);
            BufferLease second = pool.acquire(100);
            assertThat(pool.stats().leaksWatched()).isEqualTo(2);
            first.release();
            second.release();
            assertThat(pool.stats().leaksWatched()).isZero();
        }
    }

    @Test
    void onAVirtualThreadALeaseIsTrackedAtIntervalOneAndNoneAtZero() throws InterruptedException {
        for (int interval : new int[] {0, 1}) {
            try (BufferPool pool = BufferPool.builder().name("virtual-" + interval).leakSampling(interval)
                    .useAfterReleaseSampling(0).jmx(false).build()) {
                AtomicReference<BufferLease> leased = new AtomicReference<>();
                Thread virtual = Thread.ofVirtual().start(() -> leased.set(pool.acquire(100)));
                Waits.join(virtual);
                assertThat(pool.stats().leaksWatched()).as("interval %d", interval).isEqualTo(interval);
                leased.get().release();
            }
        }
    }
}
