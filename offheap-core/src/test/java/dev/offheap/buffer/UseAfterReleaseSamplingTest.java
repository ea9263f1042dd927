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

import dev.offheap.metrics.OffheapEvents;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sampled use-after-release detection: one lease in N is served with views that die at release, and a
 * stale use of its handle reports where it was acquired and released.
 */
class UseAfterReleaseSamplingTest {

    @Test
    void aStaleViewOfASampledLeaseThrowsAndItsHandleNamesBothStacks() {
        try (BufferPool pool = BufferPool.builder().name("uaf").useAfterReleaseSampling(1).leakSampling(0)
                .build()) {
            BufferLease lease = acquireHere(pool);
            MemorySegment segment = lease.segment();
            ByteBuffer bb = lease.byteBuffer();
            releaseHere(lease);

            assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> bb.putInt(0, 1)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(lease::release).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'uaf'").hasMessageContaining("4096 bytes")
                    .hasMessageContaining("acquired by thread '" + Thread.currentThread().getName() + "'")
                    .hasMessageContaining("acquireHere")
                    .hasMessageContaining("released by thread")
                    .hasMessageContaining("releaseHere")
                    .satisfies(e -> assertThat(e.getCause()).hasMessageContaining("acquired by"))
                    .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                            .satisfies(s -> assertThat(s.getMessage()).contains("released by")));
        }
    }

    /**
     * Every lease at interval 1; one in N on average, at random, above (a fixed countdown of N per thread
     * before issue 26): 4000 leases at interval 4 are Binomial(4000, 1/4), mean 1000, and fall outside
     * [700, 1300] with probability under 1e-16 (Chernoff: exp(-45) below, exp(-39.1) above).
     */
    @Test
    void oneLeaseInNPerThreadIsSampled() throws Exception {
        try (BufferPool pool = BufferPool.builder().useAfterReleaseSampling(1).leakSampling(0).build()) {
            int[] dead = new int[1];
            Thread t = Thread.ofPlatform().start(() -> dead[0] = staleViewsThatThrow(pool, 20));
            t.join();
            assertThat(dead[0]).as("interval 1").isEqualTo(20);
        }
        try (BufferPool pool = BufferPool.builder().useAfterReleaseSampling(4).leakSampling(0).build()) {
            int[] dead = new int[1];
            Thread t = Thread.ofPlatform().start(() -> dead[0] = staleViewsThatThrow(pool, 4000));
            t.join();
            assertThat(dead[0]).as("interval 4").isBetween(700, 1300);
        }
        try (BufferPool pool = BufferPool.builder().useAfterReleaseSampling(0).leakSampling(0).build()) {
            assertThat(staleViewsThatThrow(pool, 50)).as("off").isZero();
        }
    }

    @Test
    void virtualThreadsAndPoolsWithoutThreadCachesSampleAtRandom() throws Exception {
        try (BufferPool pool = BufferPool.builder().threadCaches(0).useAfterReleaseSampling(1).leakSampling(0)
                .build()) {
            assertThat(staleViewsThatThrow(pool, 10)).isEqualTo(10);
        }
        try (BufferPool pool = BufferPool.builder().useAfterReleaseSampling(1).leakSampling(0).build()) {
            int[] dead = new int[1];
            Thread.ofVirtual().start(() -> dead[0] = staleViewsThatThrow(pool, 10)).join();
            assertThat(dead[0]).isEqualTo(10);
        }
    }

    @Test
    void theDefaultIntervalIsOnAndDocumented() {
        assertThat(BufferPool.Builder.DEFAULT_USE_AFTER_RELEASE_SAMPLING).isEqualTo(131072);
    }

    @Test
    void aStaleHandleUseIsAJfrEventWithBothStacks(@TempDir Path dir) throws Exception {
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(OffheapEvents.USE_AFTER_RELEASE);
            recording.start();
            try (BufferPool pool = BufferPool.builder().name("uaf-jfr").useAfterReleaseSampling(1).leakSampling(0)
                    .jmx(false).build()) {
                BufferLease lease = acquireHere(pool);
                releaseHere(lease);
                assertThatThrownBy(lease::segment).isInstanceOf(IllegalStateException.class);
            }
            try (BufferPool plain = BufferPool.builder().name("uaf-jfr-plain").useAfterReleaseSampling(0)
                    .jmx(false).build()) {
                BufferLease lease = plain.acquire(100);
                lease.release();
                assertThatThrownBy(lease::release).isInstanceOf(IllegalStateException.class);
            }
            recording.stop();
            Path file = dir.resolve("uaf.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        }
        events = events.stream().filter(e -> e.getEventType().getName().equals(OffheapEvents.USE_AFTER_RELEASE))
                .toList(); // a recording's file may hold events other recordings enabled
        RecordedEvent sampled = events.stream().filter(e -> "uaf-jfr".equals(e.getString("pool"))).findFirst()
                .orElseThrow();
        assertThat(sampled.getLong("bytes")).isEqualTo(4096);
        assertThat(sampled.getString("operation")).isEqualTo("use");
        assertThat(sampled.getString("acquiredAt")).contains("acquireHere");
        assertThat(sampled.getString("releasedAt")).contains("releaseHere");
        RecordedEvent plain = events.stream().filter(e -> "uaf-jfr-plain".equals(e.getString("pool"))).findFirst()
                .orElseThrow();
        assertThat(plain.getString("operation")).isEqualTo("release");
        assertThat(plain.getString("acquiredAt")).as("not recorded for unsampled leases").isNull();
    }

    /** Acquires and releases {@code n} leases one after the other; counts the stale views that throw. */
    private static int staleViewsThatThrow(BufferPool pool, int n) {
        List<MemorySegment> stale = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            BufferLease b = pool.acquire(256);
            stale.add(b.segment());
            b.release();
        }
        int threw = 0;
        for (MemorySegment s : stale) {
            try {
                s.get(ValueLayout.JAVA_BYTE, 0);
            } catch (IllegalStateException e) {
                threw++;
            }
        }
        return threw;
    }

    private static BufferLease acquireHere(BufferPool pool) {
        return pool.acquire(4096);
    }

    private static void releaseHere(BufferLease lease) {
        lease.release();
    }
}
