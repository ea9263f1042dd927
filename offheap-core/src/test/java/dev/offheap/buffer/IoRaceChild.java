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

import dev.offheap.account.MemoryBudget;
import dev.offheap.account.MemoryInUseException;
import dev.offheap.os.NativeMemory;
import dev.offheap.suite.HeldByIo;
import dev.offheap.suite.RacingIo;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Run in a child JVM by {@link IoRaceTest}: each round leases buffers of every kind (small and large classes,
 * dedicated regions), stamps each with a byte of its own, starts file, socket and pipe reads and writes on some
 * of them (blocked, or merely in flight), and races one of: the pool's close, a trim after releasing the
 * others, or (where the mode can see it: checked, sampled, and dedicated leases in every mode) the release
 * of a lease an operation is using. Then a second pool and the first (if still open) lease and stamp new
 * buffers, the operations end, and the round checks: no byte of any read landed outside its own lease
 * (every stamp intact), every release and close repeated after the operations ended succeeds, and the
 * budget, the pool's bytes from the OS and its quarantine are back to exactly 0. A crash kills this JVM, which
 * the parent sees.
 *
 * <p>Arguments: mode ({@code default|checked|sampled|leak|uncached}), memory ({@code system|portable}),
 * rounds, seed. Prints one line of counts, {@code OK ...}, at the end.
 */
public final class IoRaceChild {
    private static final int[] SIZES = {4096, 65536, 256 * 1024, 1 << 20, 3 << 20};
    private static final byte NEIGHBOUR = 0x5A;
    private static final byte LATER = 0x33;

    private IoRaceChild() {}

    private enum Race { CLOSE, TRIM, RELEASE_UNDER_IO }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        NativeMemory memory = args[1].equals("portable") ? NativeMemory.portable() : NativeMemory.system();
        int rounds = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        Path dir = Files.createTempDirectory("io-race");
        Map<Race, Integer> races = new EnumMap<>(Race.class);
        Map<RacingIo.Outcome, Integer> outcomes = new EnumMap<>(RacingIo.Outcome.class);
        int heldCloses = 0;
        int closesDone = 0;
        int heldReleases = 0;
        for (int round = 0; round < rounds; round++) {
            Random random = new Random(seed * 1_000_003 + round);
            MemoryBudget budget = MemoryBudget.unlimited("io-race");
            BufferPool pool = BufferPool.builder().name("io-race").budget(budget).nativeMemory(memory).jmx(false)
                    .checked(mode.equals("checked")).useAfterReleaseSampling(mode.equals("sampled") ? 1 : 0)
                    .leakSampling(mode.equals("leak") ? 1 : 0).threadCaches(mode.equals("uncached") ? 0 : 4).build();
            BufferPool neighbour = BufferPool.builder().name("neighbour").nativeMemory(memory).jmx(false).build();

            List<BufferLease> leases = new ArrayList<>();
            int count = 3 + random.nextInt(3);
            for (int i = 0; i < count; i++) {
                BufferLease lease = pool.acquire(SIZES[random.nextInt(SIZES.length)]);
                lease.segment().fill(stamp(i));
                leases.add(lease);
            }
            // Operations on the first one to three leases.
            int busy = 1 + random.nextInt(Math.min(3, count));
            List<RacingIo> io = new ArrayList<>();
            for (int i = 0; i < busy; i++) {
                BufferLease lease = leases.get(i);
                RacingIo.Kind kind = RacingIo.Kind.values()[random.nextInt(RacingIo.Kind.values().length)];
                if (kind.blocks() && !kind.reads() && lease.size() < HeldByIo.MIN_WRITE_BYTES) {
                    kind = RacingIo.Kind.FILE_WRITE; // a write this small might not block
                }
                io.add(RacingIo.start(kind, lease.byteBuffer(), dir));
            }
            boolean canSeeARelease = !mode.equals("default") && !mode.equals("leak") && !mode.equals("uncached");
            List<Race> allowed = new ArrayList<>(List.of(Race.CLOSE, Race.TRIM));
            for (int i = 0; i < busy; i++) {
                if (canSeeARelease || leases.get(i).size() > (1 << 20)) {
                    allowed.add(Race.RELEASE_UNDER_IO);
                    break;
                }
            }
            Race race = allowed.get(random.nextInt(allowed.size()));
            races.merge(race, 1, Integer::sum);
            boolean closed = false;
            List<BufferLease> released = new ArrayList<>();
            switch (race) {
                case CLOSE -> {
                    closed = true;
                    try {
                        pool.close();
                        closesDone++;
                    } catch (MemoryInUseException held) {
                        heldCloses++;
                    }
                }
                case TRIM -> {
                    for (int i = busy; i < count; i++) {
                        check(leases.get(i).release(), "a lease no operation uses is released");
                        released.add(leases.get(i));
                    }
                    pool.trim();
                }
                case RELEASE_UNDER_IO -> {
                    for (int i = 0; i < busy; i++) {
                        BufferLease lease = leases.get(i);
                        if (canSeeARelease || lease.size() > (1 << 20)) {
                            try {
                                lease.release();
                                released.add(lease);
                            } catch (MemoryInUseException held) {
                                heldReleases++;
                                check(lease.refCount() == 1, "a held release changes nothing");
                            }
                        }
                    }
                }
            }
            // New leases, stamped: an operation's bytes must never reach them.
            List<BufferLease> later = new ArrayList<>();
            List<BufferLease> neighbours = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int size = SIZES[random.nextInt(SIZES.length)];
                BufferLease n = neighbour.acquire(size);
                n.segment().fill(NEIGHBOUR);
                neighbours.add(n);
                if (!closed) {
                    BufferLease l = pool.acquire(size);
                    l.segment().fill(LATER);
                    later.add(l);
                }
            }
            for (RacingIo op : io) {
                outcomes.merge(op.end(), 1, Integer::sum);
            }
            for (BufferLease n : neighbours) {
                checkAll(n.segment(), NEIGHBOUR, "a lease of another pool");
                n.release();
            }
            for (BufferLease l : later) {
                checkAll(l.segment(), LATER, "a lease made after the race");
                l.release();
            }
            if (!closed) {
                for (int i = busy; i < count; i++) {
                    if (!released.contains(leases.get(i))) {
                        checkAll(leases.get(i).segment(), stamp(i), "a lease no operation used");
                    }
                }
            }
            // Every operation has ended: whatever was held gives way now.
            for (BufferLease lease : leases) {
                if (!released.contains(lease)) {
                    lease.release();
                }
            }
            pool.close();
            check(budget.used() == 0, "budget back to 0, was " + budget.used());
            BufferPoolStats stats = pool.stats();
            check(stats.bytesFromOs() == 0 && stats.bytesQuarantined() == 0, "nothing left:\n" + stats.format());
            budget.close();
            neighbour.close();
        }
        System.out.println("OK rounds=" + rounds + " races=" + races + " outcomes=" + outcomes + " heldCloses="
                + heldCloses + " closesDone=" + closesDone + " heldReleases=" + heldReleases);
    }

    private static byte stamp(int i) {
        return (byte) (i + 1);
    }

    private static void checkAll(MemorySegment segment, byte expected, String what) {
        for (long i = 0; i < segment.byteSize(); i++) {
            byte b = segment.get(ValueLayout.JAVA_BYTE, i);
            if (b != expected) {
                throw new AssertionError(what + ": byte " + i + " of " + segment.byteSize() + " is " + b + ", not "
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
