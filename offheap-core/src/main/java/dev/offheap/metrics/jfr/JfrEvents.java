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

package dev.offheap.metrics.jfr;

import dev.offheap.account.BudgetExceededException;
import jdk.jfr.FlightRecorder;

/**
 * Where offheap's code emits its JFR events: each is made only once the Flight Recorder runs in this JVM
 * (started at launch, by {@code jcmd JFR.start}, or by a recording or stream made in code). Loading an event
 * class registers it with JFR, which loads about 120 classes of JFR's own (a megabyte of metaspace) in every
 * JVM that uses a pool, recording or not; {@code FlightRecorder.isInitialized()} costs one class and a read.
 * An event that happens before JFR starts would not be recorded anyway.
 */
public final class JfrEvents {
    private JfrEvents() {}

    /** Whether the Flight Recorder runs, so that an event could be recorded. */
    static boolean on() {
        return FlightRecorder.isInitialized();
    }

    public static void budgetExceeded(String pool, BudgetExceededException refusal) {
        if (on()) {
            BudgetExceeded.emit(pool, refusal);
        }
    }

    public static void chunkAllocated(String pool, String source, long bytes) {
        if (on()) {
            ChunkAllocated.emit(pool, source, bytes);
        }
    }

    public static void chunkReleased(String pool, String source, long bytes) {
        if (on()) {
            ChunkReleased.emit(pool, source, bytes);
        }
    }

    public static void leakReported(String pool, long bytes, Throwable acquiredAt) {
        if (on()) {
            LeakReported.emit(pool, bytes, acquiredAt);
        }
    }

    public static void poolTrimmed(String pool, String poolType, long bytes) {
        if (on()) {
            PoolTrimmed.emit(pool, poolType, bytes);
        }
    }

    public static void slabAllocated(String pool, long bytes, int slotSize) {
        if (on()) {
            SlabAllocated.emit(pool, bytes, slotSize);
        }
    }

    public static void slabReleased(String pool, long bytes, int slotSize) {
        if (on()) {
            SlabReleased.emit(pool, bytes, slotSize);
        }
    }

    public static void useAfterRelease(String pool, long bytes, String operation, Throwable acquiredAt,
            Throwable releasedAt) {
        if (on()) {
            UseAfterRelease.emit(pool, bytes, operation, acquiredAt, releasedAt);
        }
    }
}
