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

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * Run in child JVMs by {@link SharedArrayAcrossProcessesTest}: each role opens one file of longs
 * {@link MappedArray.Mode#SHARED} and follows the writer rule of that mode.
 *
 * <ul>
 * <li>{@code pingpong <file> <player> <rounds> <adds>}: two players (0 and 1) pass a ball (element
 *     {@link #BALL}): the player whose turn it is ({@code ball % 2 == player}) checks the payload the other left
 *     (a plain element, published with the ball's {@code setRelease}), writes its own and passes the ball. Then
 *     each adds 1 to {@link #ADDED} {@code adds} times with {@code getAndAdd} and to {@link #SWAPPED} with a
 *     {@code compareAndSet} loop, both players at once. Prints {@code done}.</li>
 * <li>{@code log <file> <records>}: the writer that the test kills. Writes record after record ({@link #RECORD}
 *     plain elements each) and publishes each with {@code setRelease} of the count ({@link #COUNT}); after every
 *     record, and forever once the log is full, rewrites the slot under the sequence lock ({@link #SEQUENCE}).
 *     Prints {@code published <count>} now and then.</li>
 * <li>{@code check <file> <records>}: a reader while the writer runs: checks the last published record and the
 *     slot (read under the sequence lock) over and over until its standard input ends, then every published
 *     record once more; prints {@code ok <checks> <count> <sequence>}, or {@code BAD ...} and exits with 1.</li>
 * </ul>
 */
public final class SharedArrayChild {
    static final int BALL = 0;
    static final int PAYLOAD = 1;
    static final int ADDED = 8;
    static final int SWAPPED = 16;

    static final int COUNT = 0;
    static final int SEQUENCE = 8;
    static final int SLOT = 9;
    static final int SLOT_LENGTH = 8;
    static final int FIRST_RECORD = 32;
    static final int RECORD = 64;

    private SharedArrayChild() {}

    /** The length of a log file of {@code records} records. */
    static long logLength(long records) {
        return FIRST_RECORD + records * RECORD;
    }

    /** Element {@code k} of record {@code r} (or of the slot written under sequence {@code r}): never zero. */
    static long value(long r, long k) {
        return (r + 1) * 1000 + k;
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[1]);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.SHARED, ElementType.LONG);
             LongArray longs = array.longs()) {
            switch (args[0]) {
                case "pingpong" -> pingPong(longs, Integer.parseInt(args[2]), Long.parseLong(args[3]),
                        Long.parseLong(args[4]));
                case "log" -> log(longs, Long.parseLong(args[2]));
                case "check" -> System.exit(check(longs, Long.parseLong(args[2])));
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
    }

    private static void pingPong(LongArray longs, int player, long rounds, long adds) {
        System.out.println("open");
        for (long ball = longs.getAcquire(BALL); ball < rounds; ball = longs.getAcquire(BALL)) {
            if (ball % 2 != player) {
                pause();
                continue;
            }
            long payload = longs.get(PAYLOAD);
            if (payload != ball * 7) {
                throw new AssertionError("player " + player + " at ball " + ball + " finds the payload " + payload
                        + ", not " + ball * 7 + ": the plain write before the other's release was not seen");
            }
            longs.set(PAYLOAD, (ball + 1) * 7);
            longs.setRelease(BALL, ball + 1);
        }
        for (long i = 0; i < adds; i++) {
            longs.getAndAdd(ADDED, 1);
            long seen;
            do {
                seen = longs.getVolatile(SWAPPED);
            } while (!longs.compareAndSet(SWAPPED, seen, seen + 1));
        }
        System.out.println("done");
    }

    private static int spins;

    /** Spins a little, then yields: two spinning processes on two busy cores must not starve the other one. */
    private static void pause() {
        if (++spins % 64 == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
    }

    private static void log(LongArray longs, long records) {
        System.out.println("open");
        for (long r = 0; ; r++) {
            if (r < records) {
                long base = FIRST_RECORD + r * RECORD;
                for (int k = 0; k < RECORD; k++) {
                    longs.set(base + k, value(r, k));
                }
                longs.setRelease(COUNT, r + 1);
                if ((r + 1) % 512 == 0 || r + 1 == records) {
                    System.out.println("published " + (r + 1));
                }
            }
            long odd = longs.getAndAdd(SEQUENCE, 1) + 1;
            for (int k = 0; k < SLOT_LENGTH; k++) {
                longs.set(SLOT + k, value(odd, k));
            }
            longs.setRelease(SEQUENCE, odd + 1);
        }
    }

    private static int check(LongArray longs, long records) throws IOException {
        System.out.println("open");
        long checks = 0;
        Thread stdin = Thread.ofPlatform().daemon().start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // until the parent closes our standard input
                }
            } catch (IOException ended) {
                // the parent is gone
            }
        });
        try {
            while (stdin.isAlive()) {
                long count = longs.getAcquire(COUNT);
                if (count > 0) {
                    checkRecord(longs, count - 1);
                }
                checkSlot(longs);
                checks++;
            }
            long count = longs.getAcquire(COUNT);
            for (long r = 0; r < count; r++) {
                checkRecord(longs, r);
            }
            for (long r = count; r < records; r++) {
                checkUnpublished(longs, r);
            }
            System.out.println("ok " + checks + " " + count + " " + longs.getAcquire(SEQUENCE));
            return 0;
        } catch (AssertionError bad) {
            System.out.println("BAD " + bad.getMessage());
            return 1;
        }
    }

    /** A published record is whole. */
    static void checkRecord(LongArray longs, long r) {
        long base = FIRST_RECORD + r * RECORD;
        for (int k = 0; k < RECORD; k++) {
            long found = longs.get(base + k);
            if (found != value(r, k)) {
                throw new AssertionError("published record " + r + " element " + k + " holds " + found + ", not "
                        + value(r, k));
            }
        }
    }

    /** A record not published yet holds zeros or its own values (the writer was writing it). */
    static void checkUnpublished(LongArray longs, long r) {
        long base = FIRST_RECORD + r * RECORD;
        for (int k = 0; k < RECORD; k++) {
            long found = longs.get(base + k);
            if (found != 0 && found != value(r, k)) {
                throw new AssertionError("unpublished record " + r + " element " + k + " holds " + found);
            }
        }
    }

    /**
     * Reads the slot under the sequence lock, retrying while a write is under way (a live writer ends it soon); a
     * slot read under the same even sequence twice holds one write, whole.
     *
     * @return the sequence read, even
     */
    static long checkSlot(LongArray longs) {
        long[] slot = new long[SLOT_LENGTH];
        for (int attempt = 0; ; attempt++) {
            long before = longs.getAcquire(SEQUENCE);
            for (int k = 0; k < SLOT_LENGTH; k++) {
                slot[k] = longs.get(SLOT + k);
            }
            VarHandle.acquireFence();
            long after = longs.getAcquire(SEQUENCE);
            if (before == after && before % 2 == 0) {
                for (int k = 0; k < SLOT_LENGTH && before > 0; k++) {
                    if (slot[k] != value(before - 1, k)) {
                        throw new AssertionError("the slot under sequence " + before + " holds " + slot[k]
                                + " at " + k + ", not " + value(before - 1, k));
                    }
                }
                return before;
            }
            if (before % 2 != 0 && before == after && attempt > 1_000_000) {
                return before; // odd for good: the writer died within a write
            }
            pause();
        }
    }
}
