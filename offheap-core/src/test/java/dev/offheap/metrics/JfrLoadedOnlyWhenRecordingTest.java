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

package dev.offheap.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.ChildJvm;
import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.LongArray;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that records nothing loads none of JFR because it uses offheap: loading an event class registers it with
 * JFR, about 120 classes and a megabyte of metaspace in every server (issue 27: what an idle server's RSS was
 * made of). The events themselves, with a recording, are {@link OffheapEventsTest}'s.
 */
@Tag("child-jvm")
class JfrLoadedOnlyWhenRecordingTest {

    /** Takes and gives back memory, trims, and is refused by a budget, in both pools: every kind of event. */
    public static final class Busy {
        public static void main(String[] args) {
            try (BufferPool pool = BufferPool.builder().name("busy").jmx(false).build()) {
                pool.acquire(1024).release();
                pool.acquire(2 << 20).release(); // a dedicated region
                pool.trim();
            }
            try (MemoryBudget small = MemoryBudget.root("small", 1 << 20);
                    BufferPool pool = BufferPool.builder().name("refused").budget(small).jmx(false).build()) {
                BufferLease lease = pool.acquire(4 << 20);
                lease.release();
                System.out.println("not refused");
            } catch (BudgetExceededException expected) {
                System.out.println("refused");
            }
            try (ChunkPool chunks = ChunkPool.builder().name("chunks").jmx(false).build()) {
                LongArray array = chunks.longs(1 << 20);
                array.release();
                chunks.trim();
            }
            System.out.println("OK");
        }
    }

    @Test
    void aJvmWithoutARecordingLoadsNoJfrClass(@TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m", List.of("-Xlog:class+load=info"), Duration.ofMinutes(2), Busy.class);

        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains("refused").contains("OK");
        assertThat(child.output().lines().filter(l -> l.contains("jdk.jfr.") || l.contains("dev.offheap.metrics.jfr.")))
                .as("classes loaded").containsExactlyInAnyOrder(
                        child.output().lines().filter(l -> l.contains(" jdk.jfr.FlightRecorder ")
                                || l.contains(" dev.offheap.metrics.jfr.JfrEvents ")).toArray(String[]::new));
    }

    @Test
    void aJvmThatRecordsFromLaunchLoadsTheEventsItMakes(@TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m",
                List.of("-Xlog:class+load=info", "-XX:StartFlightRecording:filename=" + dir.resolve("r.jfr")),
                Duration.ofMinutes(2), Busy.class);

        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains(" dev.offheap.metrics.jfr.SlabAllocated ")
                .contains(" dev.offheap.metrics.jfr.BudgetExceeded ").contains(" dev.offheap.metrics.jfr.ChunkAllocated ");
    }
}
