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

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.suite.HeldByIo;
import dev.offheap.suite.RacingIo;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Run in a child JVM by {@link IoRaceTest}: the store's twin of the buffer pool's race. Each round makes byte
 * arrays of one to four chunks (a chunk pool of one layout, or views of a mapped file), stamps each, starts
 * file, socket and pipe reads and writes on the segments of some of them, and races the pool's (or file's)
 * close, the release of an array an operation uses, or a trim after releasing the others. Then a second pool
 * (or file) and the first, if still open, make and stamp new arrays, the operations end, and the round checks
 * that no byte of any read landed outside its own array, that every release and close repeated afterwards
 * succeeds, and that every budget, the quarantine and the pool's addresses are back to nothing.
 *
 * <p>Arguments: target ({@code CONTIGUOUS}, {@code CONTIGUOUS_WITH_SPILL}, {@code PORTABLE},
 * {@code PORTABLE_WITH_SPILL}: a {@link Layout}; or {@code MAPPED}), rounds, seed. Prints {@code OK ...}.
 */
public final class IoRaceChild {
    private static final long CHUNK = 64 << 10;
    private static final byte NEIGHBOUR = 0x5A;
    private static final byte LATER = 0x33;

    private IoRaceChild() {}

    private enum Race { CLOSE, TRIM, RELEASE_UNDER_IO }

    /** What a round races: a chunk pool or a mapped file, and a second one for the neighbour's arrays. */
    private interface Owner extends AutoCloseable {
        ByteArray array(long length) throws Exception;

        void trim();

        @Override
        void close();

        void checkNothingLeft();
    }

    public static void main(String[] args) throws Exception {
        String target = args[0];
        int rounds = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        Path dir = Files.createTempDirectory("store-io-race");
        Map<Race, Integer> races = new EnumMap<>(Race.class);
        Map<RacingIo.Outcome, Integer> outcomes = new EnumMap<>(RacingIo.Outcome.class);
        int heldCloses = 0;
        int heldReleases = 0;
        for (int round = 0; round < rounds; round++) {
            Random random = new Random(seed * 1_000_003 + round);
            Owner owner = owner(target, dir, "race-" + round);
            Owner neighbour = owner(target.equals("MAPPED") ? "MAPPED" : "CONTIGUOUS", dir, "neighbour-" + round);
            List<ByteArray> arrays = new ArrayList<>();
            int count = 3 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                ByteArray array = owner.array((1 + random.nextInt(4)) * CHUNK);
                array.fill((byte) (i + 1));
                arrays.add(array);
            }
            int busy = 1 + random.nextInt(Math.min(3, count));
            List<RacingIo> io = new ArrayList<>();
            for (int i = 0; i < busy; i++) {
                ByteBuffer view = view(arrays.get(i));
                RacingIo.Kind kind = RacingIo.Kind.values()[random.nextInt(RacingIo.Kind.values().length)];
                if (kind.blocks() && !kind.reads() && view.capacity() < HeldByIo.MIN_WRITE_BYTES) {
                    kind = RacingIo.Kind.FILE_WRITE;
                }
                io.add(RacingIo.start(kind, view, dir));
            }
            Race race = Race.values()[random.nextInt(Race.values().length)];
            races.merge(race, 1, Integer::sum);
            boolean closed = false;
            List<ByteArray> released = new ArrayList<>();
            switch (race) {
                case CLOSE -> {
                    closed = true;
                    try {
                        owner.close();
                    } catch (MemoryInUseException held) {
                        heldCloses++;
                    }
                }
                case TRIM -> {
                    for (int i = busy; i < count; i++) {
                        arrays.get(i).release();
                        released.add(arrays.get(i));
                    }
                    owner.trim();
                }
                case RELEASE_UNDER_IO -> {
                    for (int i = 0; i < busy; i++) {
                        try {
                            arrays.get(i).release();
                            released.add(arrays.get(i));
                        } catch (MemoryInUseException held) {
                            heldReleases++;
                            check(arrays.get(i).refCount() == 1, "a held release changes nothing");
                        }
                    }
                }
            }
            List<ByteArray> later = new ArrayList<>();
            List<ByteArray> neighbours = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                long length = (1 + random.nextInt(4)) * CHUNK;
                ByteArray n = neighbour.array(length);
                n.fill(NEIGHBOUR);
                neighbours.add(n);
                if (!closed) {
                    ByteArray l = owner.array(length);
                    l.fill(LATER);
                    later.add(l);
                }
            }
            for (RacingIo op : io) {
                outcomes.merge(op.end(), 1, Integer::sum);
            }
            for (ByteArray n : neighbours) {
                checkAll(n, NEIGHBOUR, "an array of another pool or file");
                n.release();
            }
            for (ByteArray l : later) {
                checkAll(l, LATER, "an array made after the race");
                l.release();
            }
            if (!closed) {
                for (int i = busy; i < count; i++) {
                    if (!released.contains(arrays.get(i))) {
                        checkAll(arrays.get(i), (byte) (i + 1), "an array no operation used");
                    }
                }
            }
            for (ByteArray array : arrays) {
                if (!released.contains(array) && !closed) {
                    array.release(); // every operation has ended: nothing holds it now
                }
            }
            owner.close(); // the first close, or the repeat of one that found an array held
            owner.checkNothingLeft();
            neighbour.close();
            neighbour.checkNothingLeft();
        }
        System.out.println("OK rounds=" + rounds + " races=" + races + " outcomes=" + outcomes + " heldCloses="
                + heldCloses + " heldReleases=" + heldReleases);
    }

    /** The array's bytes as one buffer when it is contiguous, else its first chunk's. */
    private static ByteBuffer view(ByteArray array) {
        MemorySegment whole = array.contiguousSegment().orElse(null);
        if (whole != null) {
            return whole.asByteBuffer();
        }
        List<MemorySegment> pieces = new ArrayList<>();
        array.forEachChunk((segment, first) -> pieces.add(segment));
        return pieces.getFirst().asByteBuffer();
    }

    private static Owner owner(String target, Path dir, String name) throws Exception {
        if (target.equals("MAPPED")) {
            return mapped(dir, name);
        }
        Layout layout = Layout.valueOf(target);
        MemoryBudget budget = MemoryBudget.unlimited(name + "-memory");
        MemoryBudget spillBudget = MemoryBudget.unlimited(name + "-spill");
        ChunkPool.Builder builder = layout.builder(name, CHUNK, 8, dir).budget(budget);
        ChunkPool pool = (target.endsWith("WITH_SPILL") ? builder.spillBudget(spillBudget) : builder).build();
        return new Owner() {
            @Override
            public ByteArray array(long length) {
                return pool.bytes(length);
            }

            @Override
            public void trim() {
                pool.trim();
            }

            @Override
            public void close() {
                pool.close();
            }

            @Override
            public void checkNothingLeft() {
                check(budget.used() == 0 && spillBudget.used() == 0, "budgets back to 0: " + budget.used() + ", "
                        + spillBudget.used());
                check(pool.stats().bytesQuarantined() == 0 && pool.stats().liveArrays() == 0, "nothing left: "
                        + pool.stats().format());
                check(pool.addressRanges().length == 0, "nothing of the pool mapped");
                budget.close();
                spillBudget.close();
            }
        };
    }

    /**
     * Mapped files as an owner: each array is the one view of a file of its own (views of one file share its
     * bytes, so only separate files can keep apart what the round stamps); closing it closes every file.
     */
    private static Owner mapped(Path dir, String name) {
        MemoryBudget budget = MemoryBudget.unlimited(name + "-views");
        List<MappedArray> files = new ArrayList<>();
        return new Owner() {
            @Override
            public ByteArray array(long length) throws Exception {
                MappedArray file = MappedArray.create(dir.resolve(name + "-" + files.size() + ".npy"),
                        ElementType.BYTE, length, MappedArray.Options.defaults().budget(budget).jmx(false));
                files.add(file);
                return file.bytes();
            }

            @Override
            public void trim() {
                for (MappedArray file : files) {
                    try {
                        file.force(); // a mapped file has no trim: forcing its views races the operations instead
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            }

            @Override
            public void close() {
                MemoryInUseException held = null;
                for (MappedArray file : files) {
                    try {
                        file.close();
                    } catch (MemoryInUseException e) {
                        held = held == null ? e : held;
                    }
                }
                if (held != null) {
                    throw held;
                }
            }

            @Override
            public void checkNothingLeft() {
                check(budget.used() == 0, "the views' budget back to 0: " + budget.used());
                for (MappedArray file : files) {
                    check(file.openViews() == 0, "no view left of " + file.path());
                    try {
                        Files.delete(file.path());
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                budget.close();
            }
        };
    }

    private static void checkAll(ByteArray array, byte expected, String what) {
        for (long i = 0; i < array.length(); i++) {
            byte b = array.get(i);
            if (b != expected) {
                throw new AssertionError(what + ": byte " + i + " of " + array.length() + " is " + b + ", not "
                        + expected + (b == RacingIo.PATTERN ? " (an operation's bytes landed there)" : ""));
            }
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
