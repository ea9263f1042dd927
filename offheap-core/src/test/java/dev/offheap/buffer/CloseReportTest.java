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

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Filter;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a pool with leases still out logs one warning through the System.Logger named after the pool's class
 * (backed by java.util.logging here, captured by a filter as in LeakDetectionTest), counting pooled and
 * dedicated leases alike; closing a pool with none out logs nothing.
 */
class CloseReportTest {
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    /** Held strongly so that its filter is not lost if the logger were collected. */
    private final Logger poolLogger = Logger.getLogger(BufferPool.class.getName());
    private Filter previousFilter;
    private final Logger leakLogger = Logger.getLogger("dev.offheap.buffer.leak");
    private Filter previousLeakFilter;
    private final List<LogRecord> leakRecords = new CopyOnWriteArrayList<>();

    @BeforeEach
    void captureReports() {
        previousFilter = poolLogger.getFilter();
        poolLogger.setFilter(logRecord -> {
            records.add(logRecord);
            return false;
        });
        previousLeakFilter = leakLogger.getFilter();
        leakLogger.setFilter(logRecord -> {
            leakRecords.add(logRecord);
            return false;
        });
    }

    @AfterEach
    void restoreLogger() {
        poolLogger.setFilter(previousFilter);
        leakLogger.setFilter(previousLeakFilter);
    }

    @Test
    void closeCountsPooledAndDedicatedLeasesStillOut() {
        BufferPool pool = BufferPool.builder().name("closed-with-three").jmx(false).leakSampling(0).build();
        pool.acquire(100);
        pool.acquire(5000);
        pool.acquire(2 << 20); // above the largest class: a region of its own
        pool.acquire(200).release();
        pool.acquire(3 << 20).release();
        pool.close();

        assertThat(records).hasSize(1);
        LogRecord report = records.getFirst();
        assertThat(report.getLevel().getName()).isEqualTo("WARNING");
        assertThat(report.getMessage()).isEqualTo("buffer pool ''{0}'' closed with {1} buffers still leased;"
                + " their views now throw and their memory goes back to the OS (what an I/O operation still holds"
                + " once it has ended)");
        assertThat(report.getParameters()).containsExactly("closed-with-three", 3);
        assertThat(pool.budget().used()).isZero();
    }

    @Test
    void twoDedicatedLeasesOutAreTwo() {
        BufferPool pool = BufferPool.builder().name("closed-with-two").jmx(false).leakSampling(0).build();
        pool.acquire(2 << 20);
        pool.acquire((1 << 20) + 1);
        pool.close();
        assertThat(records).hasSize(1);
        assertThat(records.getFirst().getParameters()).containsExactly("closed-with-two", 2);
    }

    @Test
    void closeWithNothingOutLogsNothing() {
        BufferPool pool = BufferPool.builder().name("closed-tidy").jmx(false).leakSampling(0).build();
        pool.acquire(100).release();
        pool.acquire(2 << 20).release();
        pool.close();
        assertThat(records).isEmpty();
    }

    /**
     * close() looks for leases lost without release before it counts those still out: a lost lease that the
     * collector has found is reported as a leak, not as a lease still out. Whether the collector has handed
     * it over by the time of close is up to the collector, so each attempt loses a lease in a new pool, runs
     * a GC and closes; the first close that finds it ends the test (waits up to 10 s of attempts).
     */
    @Test
    void aLeaseLostBeforeCloseIsReportedAsALeakNotAsStillLeased() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean foundAtClose = false;
        for (int attempt = 0; !foundAtClose && System.nanoTime() < deadline; attempt++) {
            records.clear();
            leakRecords.clear();
            BufferPool pool = BufferPool.builder().name("lost-before-close-" + attempt).threadCaches(0)
                    .leakSampling(1).useAfterReleaseSampling(0).jmx(false).build();
            loseALease(pool);
            System.gc();
            Thread.sleep(10);
            pool.close();
            foundAtClose = records.isEmpty();
        }
        assertThat(foundAtClose).as("a close found the lost lease (the collector had it within 10 s)").isTrue();
        assertThat(leakRecords).hasSize(1);
        assertThat(leakRecords.getFirst().getMessage()).contains("LEAK").contains("100 bytes");
    }

    private static void loseALease(BufferPool pool) {
        pool.acquire(100).segment().fill((byte) 1);
    }
}
