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

import dev.offheap.os.SystemCallFaults;
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything a chunk pool holds, as far as a failed call could change it: its statistics (without the peaks,
 * which may see chunks backed for a moment), its budgets' use, its mappings, the bytes of the addresses it
 * records as its own (all of them mapped), and its spill file's size, disk blocks and bytes mapped.
 */
record PoolState(ChunkPoolStats stats, long memoryUsed, long spillUsed, long ownedBytes, SpillFile spillFile) {

    /**
     * What the pool's spill file is now, found by name among the process's descriptors (Linux): its size, the
     * whole chunks of disk space it takes (a file system's own blocks, an extent tree's, are no chunk's) and
     * the bytes of it mapped.
     */
    record SpillFile(long size, long allocatedChunks, long bytesMapped) {
        static final SpillFile NONE = new SpillFile(0, 0, 0);
    }

    static PoolState of(ChunkPool pool) {
        long[] owned = pool.addressRanges();
        long ownedBytes = 0;
        for (int i = 0; i < owned.length; i += 2) {
            ownedBytes += owned[i + 1] - owned[i];
            assertThat(SystemCallFaults.bytesMapped(owned[i], owned[i + 1]))
                    .as("every address pool '%s' records as its own is mapped", pool.name())
                    .isEqualTo(owned[i + 1] - owned[i]);
        }
        return new PoolState(withoutPeaks(pool.stats()), pool.budget().used(),
                pool.spillBudget() == null ? 0 : pool.spillBudget().used(), ownedBytes, spillFile(pool.name(), pool.chunkSize()));
    }

    /**
     * Checks that nothing the calls of a failed request mapped (as the seam recorded them) is still mapped but
     * what the pool records as its own: call right after the failure, before anything else maps.
     */
    static void assertNothingLeftMapped(SystemCallFaults faults, ChunkPool pool) {
        long[] owned = pool.addressRanges();
        for (long[] range : faults.mappedMeanwhile()) {
            long ownedInside = 0;
            for (int i = 0; i < owned.length; i += 2) {
                ownedInside += Math.max(0, Math.min(range[1], owned[i + 1]) - Math.max(range[0], owned[i]));
            }
            assertThat(SystemCallFaults.bytesMapped(range[0], range[1]))
                    .as("bytes still mapped of [0x%x, 0x%x), mapped by the failed call, beyond those pool '%s' owns",
                            range[0], range[1], pool.name())
                    .isLessThanOrEqualTo(ownedInside);
        }
    }

    /** This state with one free spill chunk turned into a hole: its space and its charge gone. */
    PoolState lostOneFreeSpillChunk() {
        ChunkSourceStats s = stats.spill().orElseThrow();
        long chunk = s.chunkSize();
        ChunkSourceStats spill = new ChunkSourceStats(s.name(), chunk, s.created(), s.inUse(), s.free() - 1,
                s.holes() + 1, s.bytesCharged() - chunk, s.limitBytes(), s.peakBacked());
        return new PoolState(new ChunkPoolStats(stats.name(), stats.budgetPath(), stats.liveArrays(), stats.mappings(),
                stats.bytesQuarantined(), stats.memory(), java.util.Optional.of(spill)), memoryUsed, spillUsed - chunk,
                ownedBytes, new SpillFile(spillFile.size(), spillFile.allocatedChunks() - 1, spillFile.bytesMapped()));
    }

    static ChunkPoolStats withoutPeaks(ChunkPoolStats stats) {
        return new ChunkPoolStats(stats.name(), stats.budgetPath(), stats.liveArrays(), stats.mappings(),
                stats.bytesQuarantined(), withoutPeak(stats.memory()), stats.spill().map(PoolState::withoutPeak));
    }

    private static ChunkSourceStats withoutPeak(ChunkSourceStats s) {
        return new ChunkSourceStats(s.name(), s.chunkSize(), s.created(), s.inUse(), s.free(), s.holes(),
                s.bytesCharged(), s.limitBytes(), 0);
    }

    /** The spill file of pool {@code pool}: its descriptor's target is named {@code offheap-<pool>-...spill}. */
    static SpillFile spillFile(String pool, long chunkSize) {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return SpillFile.NONE;
        }
        String name = "offheap-" + pool + "-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> all = Files.list(fds)) {
            for (Path fd : all.toList()) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.contains("/" + name) && target.contains(".spill")) {
                    Path file = Path.of("/proc", String.valueOf(ProcessHandle.current().pid()), "fd",
                            fd.getFileName().toString());
                    String fileName = target.substring(target.lastIndexOf('/') + 1).replace(" (deleted)", "");
                    return new SpillFile(Files.size(file), allocated(file) / chunkSize,
                            SystemCallFaults.bytesMappedFrom(fileName));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return SpillFile.NONE;
    }

    /** The disk space a file takes, following the descriptor's link ({@code stat -L}). */
    private static long allocated(Path file) throws IOException {
        Process stat = new ProcessBuilder(List.of("stat", "-L", "-c", "%b %B", file.toString()))
                .redirectErrorStream(true).start();
        Waits.Finished done;
        try {
            done = Waits.finish(stat, Duration.ofSeconds(30), "stat of " + file);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for stat of " + file, e);
        }
        String[] fields = done.output().strip().split(" ");
        if (done.exitCode() != 0) {
            throw new IOException("stat -L of " + file + ": " + done.output());
        }
        return Long.parseLong(fields[0]) * Long.parseLong(fields[1]);
    }
}
