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

import dev.offheap.os.OwnedMappings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.OffheapEvents;
import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import dev.offheap.os.NativeRegion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of chunk source on its own, step by step: what undoing a request's new chunks leaves (the
 * chunks forgotten, holes or free; the mappings, the charge, the file's length), and that giving space back
 * really frees it (a block unmapped, a region closed, the spill file closed), at trim, at close and for a
 * chunk an array gives back after close.
 */
class SourceStepsUndoneTest {
    private static final long CHUNK = 64 << 10;

    @TempDir
    Path directory;

    private final MemoryBudget budget = MemoryBudget.root("steps", MemoryBudget.UNLIMITED);

    @Test
    void newBlocksBackedBeforeTheMappingLimitAreFreedWhenTheNextOneIsRefused() throws IOException {
        assumeTrue(NativeFile.isSupported(), "movable blocks need Linux");
        MappingBudget mappings = new MappingBudget("steps test", "advice", 2);
        MovableChunks source = new MovableChunks("steps", "memory", CHUNK, budget.owner("o"), mappings, OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(3)).isTrue();
        Chunk[] chunks = new Chunk[3];
        assertThatThrownBy(() -> source.backNew(chunks, 0, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("steps test needs 1 more memory mappings but holds 2 of the 2");
        assertThat(mappings.used()).as("both blocks backed before the refusal are unmapped").isZero();
        assertThat(budget.used()).isZero();
        assertFigures(source.stats(), 0, 0, 0, 0);
        source.close();
    }

    @Test
    void theLastRequestsNewBlocksAreForgottenAsIfNeverCreated() throws IOException {
        assumeTrue(NativeFile.isSupported(), "movable blocks need Linux");
        MappingBudget mappings = new MappingBudget("steps test", "advice", 10);
        MovableChunks source = new MovableChunks("steps", "memory", CHUNK, budget.owner("o"), mappings, OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(2)).isTrue();
        Chunk[] chunks = new Chunk[2];
        assertThat(assertBacked(source, chunks, 2)).isZero();
        assertThat(mappings.used()).isEqualTo(2);

        source.giveBackNew(chunks, 0, 2, 0);
        assertFigures(source.stats(), 0, 0, 0, 0);
        assertThat(mappings.used()).isZero();
        assertThat(budget.used()).isZero();
        source.close();
    }

    @Test
    void newBlocksOfAnEarlierRequestBecomeHolesWhenALaterOneCreatedMore() throws IOException {
        assumeTrue(NativeFile.isSupported(), "movable blocks need Linux");
        MappingBudget mappings = new MappingBudget("steps test", "advice", 10);
        MovableChunks source = new MovableChunks("steps", "memory", CHUNK, budget.owner("o"), mappings, OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] first = new Chunk[1];
        assertThat(assertBacked(source, first, 1)).isZero();
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] second = new Chunk[1];
        assertThat(assertBacked(source, second, 1)).isEqualTo(CHUNK);

        source.giveBackNew(first, 0, 1, 0);
        assertFigures(source.stats(), 2, 1, 0, 1);
        assertThat(mappings.used()).as("the hole's block is unmapped").isEqualTo(1);
        assertThat(budget.used()).isEqualTo(CHUNK);
        source.close();
    }

    @Test
    void theLastRequestsNewSpaceIsCutOffThePortableSpillFile() throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "finds the unlinked file through /proc/self/fd");
        ChannelChunks source = ChannelChunks.create("steps", "spill", CHUNK, budget.owner("o"), directory, "steps");
        assertThat(source.tryCharge(2)).isTrue();
        Chunk[] chunks = new Chunk[2];
        assertThat(assertBacked(source, chunks, 2)).isZero();
        assertThat(Files.size(spillFile())).isEqualTo(2 * CHUNK);

        source.giveBackNew(chunks, 0, 2, 0);
        assertThat(Files.size(spillFile())).isZero();
        assertFigures(source.stats(), 0, 0, 0, 0);
        assertThat(budget.used()).isZero();
        source.close();
    }

    @Test
    void thePortableSpillFileTrimsNothingAndKeepsItsFreeChunks() throws IOException {
        ChannelChunks source = ChannelChunks.create("steps", "spill", CHUNK, budget.owner("o"), directory, "steps");
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] chunks = new Chunk[1];
        assertBacked(source, chunks, 1);
        source.give(chunks[0]);

        assertThat(source.trim()).isZero();
        assertFigures(source.stats(), 1, 0, 1, 0);
        assertThat(budget.used()).isEqualTo(CHUNK);
        source.close();
    }

    @Test
    void newPortableSpillChunksOfAnEarlierRequestStayFreeAndCharged() throws IOException {
        ChannelChunks source = ChannelChunks.create("steps", "spill", CHUNK, budget.owner("o"), directory, "steps");
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] first = new Chunk[1];
        assertThat(assertBacked(source, first, 1)).isZero();
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] second = new Chunk[1];
        assertThat(assertBacked(source, second, 1)).isEqualTo(CHUNK);

        source.giveBackNew(first, 0, 1, 0);
        assertFigures(source.stats(), 2, 1, 1, 0);
        assertThat(budget.used()).as("no way to give its space back: still charged").isEqualTo(2 * CHUNK);
        Chunk[] reused = new Chunk[1];
        assertThat(source.takeFree(reused, 0, 1)).isEqualTo(1);
        assertThat(reused[0]).isSameAs(first[0]);
        source.close();
    }

    @Test
    void portableBlocksAreFreedAtTrimAtCloseAndWhenGivenBackAfterClose() throws IOException {
        ArenaChunks source = new ArenaChunks("steps", "memory", CHUNK, budget.owner("o"), OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(3)).isTrue();
        Chunk[] chunks = new Chunk[3];
        assertBacked(source, chunks, 3);
        NativeRegion trimmed = chunks[0].region();
        NativeRegion free = chunks[1].region();
        NativeRegion held = chunks[2].region();

        source.give(chunks[0]);
        assertThat(source.trim()).isEqualTo(CHUNK);
        assertThat(trimmed.segment().scope().isAlive()).as("a trimmed block is freed").isFalse();
        assertThat(free.segment().scope().isAlive()).isTrue();

        source.give(chunks[1]);
        source.close();
        assertThat(free.segment().scope().isAlive()).as("a free block is freed at close").isFalse();
        assertThat(held.segment().scope().isAlive()).as("an array still holds it").isTrue();
        assertThat(source.stats().free()).as("nothing is free once closed").isZero();

        source.give(chunks[2]);
        assertThat(held.segment().scope().isAlive()).as("given back after close: freed at once").isFalse();
        assertThat(source.stats().inUse()).isZero();
        assertThat(budget.used()).isZero();
    }

    @Test
    void aTrimmedMovableBlockIsUnmapped() throws IOException {
        assumeTrue(NativeFile.isSupported(), "movable blocks need Linux");
        MappingBudget mappings = new MappingBudget("steps test", "advice", 10);
        MovableChunks source = new MovableChunks("steps", "memory", CHUNK, budget.owner("o"), mappings, OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(1)).isTrue();
        Chunk[] chunks = new Chunk[1];
        assertBacked(source, chunks, 1);
        long address = chunks[0].address();
        MovableMemory.discard(address, CHUNK); // mapped: fine

        source.give(chunks[0]);
        assertThat(source.trim()).isEqualTo(CHUNK);
        assertThatThrownBy(() -> MovableMemory.discard(address, CHUNK))
                .as("madvise of an unmapped block").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ENOMEM");
        assertThat(mappings.used()).isZero();
        source.close();
    }

    @Test
    void closingTheLinuxSpillSourceClosesItsFile() throws IOException {
        assumeTrue(NativeFile.isSupported(), "the spill file of Linux");
        NativeFile file = NativeFile.spill(directory, "steps");
        FileChunks source = new FileChunks("steps", "spill", CHUNK, budget.owner("o"), file);
        source.close();
        assertThatThrownBy(() -> file.grow(CHUNK)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed");
    }

    @Test
    void closeReportsEveryFreeChunkReleased() throws IOException {
        ArenaChunks source = new ArenaChunks("steps-close-events", "memory", CHUNK, budget.owner("o"),
                OwnedMappings.Owner.UNNAMED);
        assertThat(source.tryCharge(2)).isTrue();
        Chunk[] chunks = new Chunk[2];
        assertBacked(source, chunks, 2);
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(OffheapEvents.CHUNK_RELEASED);
            recording.start();
            source.give(chunks[1]);
            source.give(chunks[0]);
            source.close();
            recording.stop();
            Path file = directory.resolve("events.jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(OffheapEvents.CHUNK_RELEASED))
                    .filter(e -> "steps-close-events".equals(e.getString("pool"))).toList();
        }
        assertThat(events).hasSize(2);
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getString("source")).isEqualTo("memory");
            assertThat(e.getLong("bytes")).isEqualTo(CHUNK);
        });
    }

    private static long assertBacked(ChunkSource source, Chunk[] chunks, int count) throws IOException {
        return source.backNew(chunks, 0, count);
    }

    private static void assertFigures(ChunkSourceStats stats, long created, long inUse, long free, long holes) {
        assertThat(stats.created()).as("created").isEqualTo(created);
        assertThat(stats.inUse()).as("in use").isEqualTo(inUse);
        assertThat(stats.free()).as("free").isEqualTo(free);
        assertThat(stats.holes()).as("holes").isEqualTo(holes);
    }

    /** The spill file, open in this process: the portable path unlinks it at once on Linux too. */
    private Path spillFile() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            List<Path> spill = fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith(directory.toString());
                } catch (IOException e) {
                    return false;
                }
            }).toList();
            assertThat(spill).hasSize(1);
            return spill.getFirst();
        }
    }
}
