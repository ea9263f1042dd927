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

    @BeforeEach
    void captureReports() {
        previousFilter = poolLogger.getFilter();
        poolLogger.setFilter(logRecord -> {
            records.add(logRecord);
            return false;
        });
    }

    @AfterEach
    void restoreLogger() {
        poolLogger.setFilter(previousFilter);
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
                + " their memory went back to the OS and their views now throw");
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
}
