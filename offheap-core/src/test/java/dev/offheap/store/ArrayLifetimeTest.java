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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.Waits;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.io.IOException;
import java.lang.reflect.Field;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An array whose lease has ended is a dead handle in every layout: each of its methods throws
 * {@link IllegalStateException} naming the pool and the array's size, and neither it nor a segment it
 * handed out can reach the chunks once they belong to a later array.
 */
class ArrayLifetimeTest {
    private static final long CHUNK = 64 << 10;
    private static final long LENGTH = 3 * CHUNK / 8 + 5;

    @TempDir
    Path spillDirectory;

    private ChunkPool pool(Layout layout) {
        return layout.builder("lifetime", CHUNK, 2, spillDirectory).build();
    }

    /** Every method of a dead array, by name. */
    static Map<String, ThrowingCallable> everyMethod(LongArray array, LongArray other) {
        Map<String, ThrowingCallable> calls = new LinkedHashMap<>();
        calls.put("get", () -> array.get(0));
        calls.put("set", () -> array.set(1, 1));
        calls.put("fill", () -> array.fill(2));
        calls.put("fill range", () -> array.fill(0, 10, 2));
        calls.put("zero fill", () -> array.fill(0));
        calls.put("copyTo long[]", () -> array.copyTo(0, new long[4], 0, 4));
        calls.put("copyFrom long[]", () -> array.copyFrom(new long[4], 0, 0, 4));
        calls.put("copyTo live array", () -> array.copyTo(0, other, 0, 4));
        calls.put("copyTo itself", () -> array.copyTo(0, array, 1, 4));
        calls.put("copyTo from a live array", () -> other.copyTo(0, array, 0, 4));
        calls.put("toArray", () -> array.toArray(0, 4));
        calls.put("forEachChunk", () -> array.forEachChunk((segment, first) -> {
            throw new AssertionError("a kernel ran over a dead array");
        }));
        calls.put("contiguousSegment", array::contiguousSegment);
        calls.put("isContiguous", array::isContiguous);
        calls.put("length", array::length);
        calls.put("byteSize", array::byteSize);
        calls.put("retain", array::retain);
        calls.put("release", array::release);
        calls.put("close", array::close);
        return calls;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyMethodOfAReleasedArrayThrowsNamingThePoolAndTheSize(Layout layout) {
        try (ChunkPool pool = pool(layout); LongArray other = pool.longs(16)) {
            LongArray array = pool.longs(LENGTH);
            array.release();
            everyMethod(array, other).forEach((name, call) -> assertThatThrownBy(call).as(name)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pool 'lifetime'")
                    .hasMessageContaining("length=" + LENGTH));
            assertThat(array.refCount()).isZero();
            assertThat(array.toString()).contains("released");
            assertThat(other.get(0)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void everyMethodButTheOwnersReleaseOfAnArrayOfAClosedPoolThrowsNamingThePool(Layout layout) {
        ChunkPool pool = pool(layout);
        LongArray array = pool.longs(LENGTH);
        LongArray other = pool.longs(16);
        pool.close();
        Map<String, ThrowingCallable> calls = everyMethod(array, other);
        calls.remove("release");
        calls.remove("close");
        calls.forEach((name, call) -> assertThatThrownBy(call).as(name)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pool 'lifetime'")
                .hasMessageContaining("is closed"));
        assertThat(array.release()).as("the owner's own release: no error, nothing left to free").isFalse();
        assertThatThrownBy(array::release).isInstanceOf(IllegalStateException.class);
        other.close();
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void doubleReleaseAndRetainAfterReleaseThrowAndChangeNothing(Layout layout) {
        try (ChunkPool pool = pool(layout)) {
            LongArray array = pool.longs(LENGTH);
            assertThat(array.retain()).isSameAs(array);
            assertThat(array.release()).isFalse();
            assertThat(array.release()).isTrue();
            ChunkPoolStats afterRelease = pool.stats();
            assertThatThrownBy(array::release).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already released");
            assertThatThrownBy(array::retain).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already released");
            assertThatThrownBy(array::close).isInstanceOf(IllegalStateException.class);
            assertThat(pool.stats()).as("a second release gives nothing back twice").isEqualTo(afterRelease);
            assertThat(array.refCount()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aStaleArrayAndItsSegmentsNeverReachTheArrayThatReusesItsChunks(Layout layout) {
        try (ChunkPool pool = pool(layout)) {
            LongArray stale = pool.longs(LENGTH);
            List<MemorySegment> kept = new ArrayList<>();
            stale.forEachChunk((segment, first) -> kept.add(segment));
            stale.contiguousSegment().ifPresent(kept::add);
            long created = pool.stats().memory().created() + (pool.stats().spill().isEmpty() ? 0 : pool.stats().spill().orElseThrow().created());
            stale.release();
            try (LongArray next = pool.longs(LENGTH)) {
                long createdNow = pool.stats().memory().created() + (pool.stats().spill().isEmpty() ? 0 : pool.stats().spill().orElseThrow().created());
                assertThat(createdNow).as("the next array reuses the same chunks").isEqualTo(created);
                next.fill(42);
                AtomicInteger thrown = new AtomicInteger();
                for (ThrowingCallable call : everyMethod(stale, next).values()) {
                    try {
                        call.call();
                    } catch (IllegalStateException expected) {
                        thrown.incrementAndGet();
                    } catch (Throwable t) {
                        throw new AssertionError(t);
                    }
                }
                assertThat(thrown.get()).isEqualTo(everyMethod(stale, next).size());
                for (MemorySegment segment : kept) {
                    assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_LONG, 0))
                            .isInstanceOf(IllegalStateException.class);
                    assertThatThrownBy(() -> segment.set(ValueLayout.JAVA_LONG, 0, -1L))
                            .isInstanceOf(IllegalStateException.class);
                    assertThatThrownBy(() -> segment.fill((byte) -1)).isInstanceOf(IllegalStateException.class);
                }
                for (long i = 0; i < next.length(); i++) {
                    if (next.get(i) != 42) {
                        throw new AssertionError("element " + i + " of the new array holds " + next.get(i));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aReleaseWhileAnIoOperationUsesTheMemoryChangesNothingAndCanBeRepeated(Layout layout) throws Exception {
        try (ChunkPool pool = pool(layout)) {
            LongArray array = pool.longs(LENGTH);
            List<MemorySegment> pieces = new ArrayList<>();
            array.forEachChunk((segment, first) -> pieces.add(segment));
            Pipe pipe = Pipe.open();
            try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
                Thread reader = Thread.ofPlatform().start(() -> {
                    try {
                        source.read(pieces.getFirst().asSlice(0, 8).asByteBuffer()); // holds the arena while it blocks
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                while (!blockedInRead(reader)) {
                    Thread.sleep(5);
                }
                assertThatThrownBy(array::release).isInstanceOf(MemoryInUseException.class)
                        .hasMessageContaining("cannot release " + array + " now")
                        .hasMessageContaining("pool 'lifetime'")
                        .hasMessageContaining("nothing changed")
                        .hasMessageContaining("release it again once that operation has ended");
                assertThat(array.refCount()).isEqualTo(1);
                assertThat(array.length()).isEqualTo(LENGTH);
                sink.write(ByteBuffer.wrap(new byte[] {1, 0, 0, 0, 0, 0, 0, 0}));
                Waits.join(reader);
                assertThat(array.get(0)).as("the read landed in the array, still alive").isNotZero();
                assertThat(array.release()).isTrue();
                assertThat(pool.stats().liveArrays()).isZero();
                assertThat(pool.stats().memory().inUse()).isZero();
            }
        }
    }

    /** Whether the thread sits in the pipe's native read (its state stays RUNNABLE there). */
    private static boolean blockedInRead(Thread thread) {
        for (StackTraceElement frame : thread.getStackTrace()) {
            if (frame.isNativeMethod()) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void anInterruptedThreadCanMakeArraysAndDoesNotBreakTheSpillFileForOthers(Layout layout) throws Exception {
        try (ChunkPool pool = pool(layout)) {
            Thread.currentThread().interrupt(); // as a close cutting this thread's access short may leave it
            try (LongArray first = pool.longs(LENGTH)) {
                first.set(LENGTH - 1, 5);
                assertThat(first.get(LENGTH - 1)).isEqualTo(5);
            } finally {
                assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
            }
            try (LongArray second = pool.longs(LENGTH)) {
                assertThat(second.get(LENGTH - 1)).isZero();
            }
        }
    }

    /**
     * The last release drops the count before it ends the memory; until the memory has ended (here: while the
     * test holds the lock under which memory ends), the array already reads as released, and refuses access.
     */
    @Test
    void anArrayWhoseLastReleaseIsStillEndingItsMemoryReadsAsReleased() throws Exception {
        try (ChunkPool pool = ChunkPool.builder().name("ending").chunkSize(CHUNK).jmx(false).build()) {
            LongArray array = pool.longs(16);
            Field memoryField = TypedArray.class.getDeclaredField("memory");
            memoryField.setAccessible(true);
            Object memory = memoryField.get(array);
            Field endingField = ArrayMemory.class.getDeclaredField("ending");
            endingField.setAccessible(true);
            Object ending = endingField.get(memory);
            Thread releaser;
            synchronized (ending) {
                releaser = Thread.ofPlatform().name("last release").start(array::release);
                Waits.blockedOnMe(releaser);
                assertThat(array.refCount()).isZero();
                assertThat(array.toString()).isEqualTo("LongArray[length=16, contiguous, chunk pool 'ending', released]");
                assertThatThrownBy(() -> array.copyTo(0, new long[1], 0, 1))
                        .as("no owner is left, though the memory has not ended").isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            }
            Waits.join(releaser);
            assertThat(array.toString()).isEqualTo("LongArray[length=16, contiguous, chunk pool 'ending', released]");
        }
    }
}
