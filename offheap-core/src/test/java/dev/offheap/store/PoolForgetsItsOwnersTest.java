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

import dev.offheap.account.BudgetOwners;
import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A budget given to a pool outlives it, so the pool must take its owners off it: at close, and when the
 * build fails after the memory source was made. And a close that finds an array held by an I/O operation
 * forgets it, and its owner, at the close repeated once the operation has ended.
 */
class PoolForgetsItsOwnersTest {
    private static final long CHUNK = 64 << 10;

    @Test
    void closeTakesThePoolsOwnerOffAGivenBudget() {
        MemoryBudget shared = MemoryBudget.unlimited("owners-shared");
        ChunkPool pool = ChunkPool.builder().name("owning").budget(shared).chunkSize(CHUNK).jmx(false).build();
        pool.bytes(CHUNK).release();
        assertThat(ownerNames(shared)).containsExactly("store owning memory chunks");
        pool.close();
        assertThat(ownerNames(shared)).isEmpty();
        assertThat(shared.used()).isZero();
        shared.close();
    }

    @Test
    void aBuildThatCannotMakeItsSpillFileTakesTheMemoryOwnerOffAGivenBudget() {
        MemoryBudget shared = MemoryBudget.unlimited("owners-failed");
        Path impossible = Path.of("/proc/self"); // a directory, but procfs makes no files: the spill file fails
        for (boolean portable : new boolean[] {false, true}) {
            assertThatThrownBy(() -> ChunkPool.builder().name("nowhere").budget(shared).chunkSize(CHUNK)
                    .spillDirectory(impossible).portable(portable).jmx(false).build())
                    .isInstanceOf(UncheckedIOException.class);
            assertThat(ownerNames(shared)).as("portable: %s", portable).isEmpty();
        }
        shared.close();
    }

    /**
     * Issue 26 changed this: the close that finds the array held no longer forgets it (its memory then went on
     * charged and mapped with nobody to give it back but the array's release); it keeps it, quarantined, and
     * the close repeated once the operation has ended ends it and takes the pool's owner off the budget.
     */
    @Test
    void aCloseThatFindsAnArrayHeldForgetsItAndItsOwnerOnceCloseIsRepeated() throws Exception {
        MemoryBudget shared = MemoryBudget.unlimited("owners-held");
        ChunkPool pool = ChunkPool.builder().name("held-at-close").budget(shared).chunkSize(CHUNK).jmx(false).build();
        ByteArray array = pool.bytes(16 * CHUNK);
        ByteBuffer whole = array.contiguousSegment().isPresent()
                ? array.contiguousSegment().orElseThrow().asByteBuffer()
                : null;
        org.junit.jupiter.api.Assumptions.assumeTrue(whole != null, "holds the one segment of a contiguous array");
        Pipe pipe = Pipe.open();
        Thread writer = Thread.ofPlatform().start(() -> {
            try (Pipe.SinkChannel sink = pipe.sink()) {
                while (whole.hasRemaining()) {
                    sink.write(whole);
                }
            } catch (IOException | IllegalStateException e) {
                throw new AssertionError(e);
            }
        });
        pipe.source().read(ByteBuffer.allocate(1)); // the writer is inside its write, holding the segment
        assertThat(pool.stats().liveArrays()).isEqualTo(1);

        assertThatThrownBy(pool::close).isInstanceOf(MemoryInUseException.class);
        assertThat(pool.stats().liveArrays()).as("kept, quarantined").isEqualTo(1);
        assertThat(ownerNames(shared)).as("its memory is still charged").containsExactly("store held-at-close memory chunks");

        ByteBuffer sink = ByteBuffer.allocate(1 << 16);
        while (pipe.source().read(sink.clear()) >= 0) {
            // drain to the end, which the writer's close marks
        }
        pipe.source().close();
        Waits.join(writer);
        assertThat(array.release()).as("the owner's release after the close: nothing to do").isFalse();
        pool.close();
        assertThat(pool.stats().liveArrays()).isZero();
        assertThat(ownerNames(shared)).isEmpty();
        assertThat(shared.used()).isZero();
        shared.close();
    }

    private static Set<String> ownerNames(MemoryBudget budget) {
        return BudgetOwners.names(budget);
    }
}
