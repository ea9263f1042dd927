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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.os.Grace;
import dev.offheap.suite.HeldByIo;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pool's close, or a mapped file's, while an I/O operation holds a segment of one of its arrays (a thread
 * blocked in a pipe's read into it, or a write from it): everything else goes back, the held array's memory
 * stays mapped and charged (quarantined) and refuses every use, the close throws {@link MemoryInUseException}
 * naming the pool or file, and a second close once the operation has ended gives back the rest. Before: the
 * JDK's raw "Session is acquired" from the pool's close, the array kept working, and the pool gave its budget
 * back (and closed its sources) while the memory was still mapped. Also: the memory of an ended array or view
 * is reused or unmapped only after one more handshake (JDK-8364167, {@link Grace}).
 */
class IoHoldsArraysTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path dir;

    private static ByteBuffer firstPiece(TypedArray array) {
        List<MemorySegment> pieces = new ArrayList<>();
        array.forEachChunk((segment, first) -> pieces.add(segment));
        return pieces.getFirst().asByteBuffer();
    }

    private static long chunksInUse(ChunkPool pool) {
        ChunkPoolStats stats = pool.stats();
        return stats.memory().inUse() + stats.spill().map(ChunkSourceStats::inUse).orElse(0L);
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void closingThePoolWhileAReadHoldsAnArrayQuarantinesItUntilCloseIsRepeated(Layout layout) throws Exception {
        String name = "held-" + layout;
        MemoryBudget budget = MemoryBudget.unlimited("memory-" + layout);
        MemoryBudget spillBudget = MemoryBudget.unlimited("spill-" + layout);
        ChunkPool.Builder builder = layout.builder(name, CHUNK, 2, dir).budget(budget);
        ChunkPool pool = (layout.name().endsWith("WITH_SPILL") ? builder.spillBudget(spillBudget) : builder).build();
        LongArray held = pool.longs(3 * CHUNK / Long.BYTES); // with spill: 2 memory chunks, 1 spill chunk
        LongArray other = pool.longs(CHUNK / Long.BYTES);
        pool.longs(CHUNK / Long.BYTES).release(); // a free chunk
        long heldMemoryChunks = layout.name().endsWith("WITH_SPILL") ? 2 : 3;
        String description = held.toString();
        ByteBuffer view = firstPiece(held);
        HeldByIo read = HeldByIo.reading(view);

        assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class)
                .hasMessageContaining("cannot close chunk pool '" + name + "' completely")
                .hasMessageContaining(description)
                .hasMessageContaining("stats().bytesQuarantined()")
                .hasMessageContaining("close() again once that operation has ended")
                .satisfies(e -> assertThat(((MemoryInUseException) e).heldBytes()).isEqualTo(3 * CHUNK));
        assertThatThrownBy(() -> pool.longs(1)).as("no new array").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chunk pool '" + name + "' is closed");
        ChunkPoolStats stats = pool.stats();
        assertThat(stats.liveArrays()).isEqualTo(1);
        assertThat(stats.bytesQuarantined()).isEqualTo(heldMemoryChunks * CHUNK).isEqualTo(stats.bytesInUse())
                .as("the held chunks stay charged, the free one went back").isEqualTo(budget.used());
        assertThat(stats.bytesCached()).isZero();
        Map<String, ThrowingCallable> calls = ArrayLifetimeTest.everyMethod(held, held);
        calls.remove("release");
        calls.remove("close");
        calls.remove("copyTo from a live array");
        calls.put("copyTo from another array of the pool", () -> other.copyTo(0, held, 0, 4));
        calls.forEach((method, call) -> assertThatThrownBy(call).as(method)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("chunk pool '" + name + "' is closed"));
        assertThatThrownBy(() -> other.get(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");

        read.end(new byte[] {42});
        read.close();
        assertThat(view.get(0)).as("the read landed in the held array's memory, still mapped").isEqualTo((byte) 42);
        pool.close();
        assertThat(budget.used()).isZero();
        assertThat(spillBudget.used()).isZero();
        assertThat(pool.stats().bytesQuarantined()).isZero();
        assertThat(pool.stats().liveArrays()).isZero();
        assertThat(pool.addressRanges()).as("nothing of the pool is mapped").isEmpty();
        assertThatThrownBy(() -> view.get(0)).as("the view ended").isInstanceOf(IllegalStateException.class);
        assertThatCode(pool::close).as("done: a third close does nothing").doesNotThrowAnyException();
        assertThat(held.release()).as("the owner's release after the close: harmless").isFalse();
        budget.close();
        spillBudget.close();
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"CONTIGUOUS", "CONTIGUOUS_WITH_SPILL"})
    void closingThePoolWhileAWriteHoldsAnArrayQuarantinesItUntilCloseIsRepeated(Layout layout) throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("write-" + layout);
        ChunkPool pool = layout.builder("written-" + layout, CHUNK, 2, dir).budget(budget).build();
        ByteArray held = pool.bytes(4 * CHUNK);
        held.fill((byte) 5);
        try (HeldByIo write = HeldByIo.writing(held.contiguousSegment().orElseThrow().asByteBuffer())) {
            assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("cannot close chunk pool 'written-" + layout + "' completely");
            assertThat(budget.used()).isEqualTo(pool.stats().bytesQuarantined()).isPositive();
            write.end();
        }
        pool.close();
        assertThat(budget.used()).isZero();
        assertThat(pool.addressRanges()).isEmpty();
        budget.close();
    }

    @ParameterizedTest
    @EnumSource(value = Layout.class, names = {"CONTIGUOUS", "PORTABLE"})
    void aSecondCloseWhileTheReadStillHoldsTheArrayThrowsAgainAndChangesNothing(Layout layout) throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("twice-" + layout);
        ChunkPool pool = layout.builder("twice-" + layout, CHUNK, 2, dir).budget(budget).build();
        LongArray held = pool.longs(2 * CHUNK / Long.BYTES);
        try (HeldByIo read = HeldByIo.reading(firstPiece(held))) {
            assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class);
            assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class)
                    .hasMessageContaining("cannot close chunk pool 'twice-" + layout + "' completely");
            assertThat(budget.used()).isEqualTo(2 * CHUNK).isEqualTo(pool.stats().bytesQuarantined());
            read.end();
        }
        pool.close();
        assertThat(budget.used()).isZero();
        budget.close();
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void aReleasedArraysChunksGoBackOnlyAfterAnotherHandshake(Layout layout) {
        try (ChunkPool pool = layout.builder("grace-" + layout, CHUNK, 2, dir).build()) {
            LongArray array = pool.longs(3 * CHUNK / Long.BYTES);
            long inUse = chunksInUse(pool);
            AtomicLong seen = new AtomicLong(-1);
            // The first action runs once the array's views have ended; the second once another handshake has.
            Grace.later(() -> Grace.later(() -> seen.set(chunksInUse(pool))));
            assertThat(array.release()).isTrue();
            assertThat(seen.get()).as("chunks in use when the handshake after the views' end completed")
                    .isEqualTo(inUse);
            assertThat(chunksInUse(pool)).isZero();
        }
    }

    @Test
    void aViewIsUnmappedOnlyAfterAnotherHandshake() throws Exception {
        Path path = dir.resolve("grace.npy");
        try (MappedArray file = MappedArray.create(path, ElementType.LONG, 4096,
                MappedArray.Options.defaults().jmx(false))) {
            LongArray view = file.longs();
            long mapped = file.mappedBytes();
            AtomicLong seen = new AtomicLong(-1);
            Grace.later(() -> Grace.later(() -> seen.set(file.mappedBytes())));
            assertThat(view.release()).isTrue();
            assertThat(seen.get()).as("bytes mapped when the handshake after the view's end completed")
                    .isEqualTo(mapped);
            assertThat(file.mappedBytes()).isZero();
        }
    }

    @Test
    void closingAMappedArrayWhileAReadHoldsAViewQuarantinesItUntilCloseIsRepeated() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("mapped-held");
        Path path = dir.resolve("held.npy");
        MappedArray file = MappedArray.create(path, ElementType.LONG, 4096,
                MappedArray.Options.defaults().budget(budget).jmx(false));
        LongArray held = file.longs();
        LongArray other = file.longs();
        ByteBuffer view = firstPiece(held);
        HeldByIo read = HeldByIo.reading(view);
        assertThatThrownBy(held::release).as("the view's last release").isInstanceOf(MemoryInUseException.class)
                .hasMessageContaining("cannot release " + held)
                .hasMessageContaining("nothing changed")
                .hasMessageContaining("release it again once that operation has ended");
        assertThat(held.refCount()).isEqualTo(1);
        assertThatThrownBy(file::close).isInstanceOf(MemoryInUseException.class)
                .hasMessageContaining("cannot close mapped array " + path + " completely")
                .hasMessageContaining("close() again once that operation has ended")
                .satisfies(e -> assertThat(((MemoryInUseException) e).heldBytes()).isEqualTo(4096 * 8));
        assertThat(file.openViews()).isEqualTo(1);
        assertThat(file.mappedBytes()).isEqualTo(4096 * 8).isEqualTo(budget.used());
        assertThatThrownBy(file::longs).isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
        for (ThrowingCallable call : List.<ThrowingCallable>of(() -> held.get(0), () -> held.set(0, 1), held::length,
                () -> held.fill(3), held::retain, () -> other.get(0))) {
            assertThatThrownBy(call).isInstanceOf(IllegalStateException.class).hasMessageContaining(path.toString());
        }
        read.end(new byte[] {42});
        read.close();
        assertThat(view.get(0)).isEqualTo((byte) 42);
        file.close();
        assertThat(file.openViews()).isZero();
        assertThat(file.mappedBytes()).isZero();
        assertThat(budget.used()).isZero();
        assertThatCode(file::close).doesNotThrowAnyException();
        assertThat(held.release()).isFalse();
        budget.close();
    }
}
