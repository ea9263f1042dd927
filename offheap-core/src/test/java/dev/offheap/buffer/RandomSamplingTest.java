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

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On a thread with a cache, the gap between two sampled leases is drawn at random (geometric, mean = the
 * interval), so every call site is sampled in proportion to its acquires, whatever the pattern of the calls.
 * A fixed countdown samples every 64th acquire: with two acquires per request and an even interval, the first
 * call site is never sampled.
 *
 * <p>The bounds cannot flake in practice. Each lease is sampled with probability p = 1/64, independently, so
 * the samples of one call site over R requests are Binomial(R, 1/64), mean mu = R/64. Chernoff bounds: P(X <=
 * (1 - d) mu) <= exp(-d^2 mu / 2) and P(X >= (1 + d) mu) <= exp(-d^2 mu / (2 + d)). With R = 64,000, mu = 1000
 * and d = 0.3: exp(-45) = 2.9e-20 below, exp(-39.1) = 1.0e-17 above; four tails (two sites) stay under 1e-16.
 * For the mean over 2R leases (mu = 2000) with d = 0.2: exp(-40) = 4.2e-18 below, exp(-36.4) = 1.6e-16 above.
 */
class RandomSamplingTest {
    private static final int INTERVAL = 64;
    private static final int REQUESTS = 64_000;
    /** Per call site: mu = REQUESTS / INTERVAL = 1000, within 30 %. */
    private static final int SITE_LOW = 700;
    private static final int SITE_HIGH = 1300;
    /** Both sites: mu = 2000, within 20 %. */
    private static final int TOTAL_LOW = 1600;
    private static final int TOTAL_HIGH = 2400;

    @Test
    void useAfterReleaseSamplingReachesBothCallSitesOfARequest() {
        try (BufferPool pool = BufferPool.builder().name("two-sites-uar").useAfterReleaseSampling(INTERVAL)
                .leakSampling(0).jmx(false).build()) {
            int[] sampled = new int[2];
            for (int r = 0; r < REQUESTS; r++) {
                BufferLease a = pool.acquire(100);
                BufferLease b = pool.acquire(200);
                sampled[0] += recordsSites(a);
                sampled[1] += recordsSites(b);
                b.release();
                a.release();
            }
            assertThat(pool.stats().threadCaches()).as("the calling thread has a cache").isEqualTo(1);
            assertSampledInProportion(sampled);
        }
    }

    @Test
    void leakSamplingReachesBothCallSitesOfARequest() {
        int round = 100;
        try (BufferPool pool = BufferPool.builder().name("two-sites-leak").leakSampling(INTERVAL)
                .useAfterReleaseSampling(0).jmx(false).build()) {
            int[] sampled = new int[2];
            List<BufferLease> as = new ArrayList<>();
            List<BufferLease> bs = new ArrayList<>();
            for (int r = 0; r < REQUESTS; r += round) {
                for (int i = 0; i < round; i++) {
                    as.add(pool.acquire(100));
                    bs.add(pool.acquire(200));
                }
                int watched = pool.stats().leaksWatched();
                bs.forEach(BufferLease::release);
                int watchedA = pool.stats().leaksWatched();
                as.forEach(BufferLease::release);
                sampled[0] += watchedA;
                sampled[1] += watched - watchedA;
                as.clear();
                bs.clear();
            }
            assertThat(pool.stats().threadCaches()).as("the calling thread has a cache").isEqualTo(1);
            assertSampledInProportion(sampled);
        }
    }

    @Test
    void intervalOneSamplesEveryLeaseAndZeroNone() {
        try (BufferPool every = BufferPool.builder().name("every").useAfterReleaseSampling(1).leakSampling(1)
                .jmx(false).build();
                BufferPool none = BufferPool.builder().name("none").useAfterReleaseSampling(0).leakSampling(0)
                        .jmx(false).build()) {
            List<BufferLease> held = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                BufferLease lease = every.acquire(100);
                assertThat(recordsSites(lease)).as("lease %d", i).isOne();
                held.add(lease);
                BufferLease plain = none.acquire(100);
                assertThat(recordsSites(plain)).isZero();
                held.add(plain);
            }
            assertThat(every.stats().leaksWatched()).isEqualTo(1000);
            assertThat(none.stats().leaksWatched()).isZero();
            held.forEach(BufferLease::release);
        }
    }

    private static void assertSampledInProportion(int[] sampled) {
        assertThat(sampled[0]).as("first call site (%s)", java.util.Arrays.toString(sampled))
                .isBetween(SITE_LOW, SITE_HIGH);
        assertThat(sampled[1]).as("second call site (%s)", java.util.Arrays.toString(sampled))
                .isBetween(SITE_LOW, SITE_HIGH);
        assertThat(sampled[0] + sampled[1]).as("mean rate, both sites").isBetween(TOTAL_LOW, TOTAL_HIGH);
    }

    /** 1 if the lease was sampled for use after release: it records where it was acquired. */
    private static int recordsSites(BufferLease lease) {
        return ((Lease) lease).acquiredAt() != null ? 1 : 0;
    }
}
