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

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run in a child JVM by {@link CloseUnderLoadTest}: closes pools and releases arrays while other threads
 * read and write them through every access path, in every layout, many times. Every user must end with an
 * {@link IllegalStateException}, and keep getting one afterwards, while the chunks go to a new array that
 * must keep exactly what it was given. Prints {@code OK} and exits 0; a failure prints it and exits 1; a
 * crash leaves an hs_err file.
 */
public final class CloseUnderLoadChild {
    private static final long CHUNK = 64 << 10;
    private static final long LENGTH = 4 * CHUNK / 8 + 3;
    private static final int USERS = 3;
    private static final int STALE_TRIES = 200;

    private CloseUnderLoadChild() {}

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Path spill = Files.createTempDirectory(Path.of(args[1]), "spill");
        try {
            for (Layout layout : Layout.values()) {
                for (int round = 0; round < rounds; round++) {
                    run(layout, round % 2 == 0, spill);
                }
            }
        } catch (Throwable t) {
            System.out.println("FAILED " + t);
            t.printStackTrace(System.out);
            System.exit(1);
        }
        System.out.println("OK");
    }

    /** One round: users hammer an array, then the pool closes ({@code closePool}) or the array is released. */
    private static void run(Layout layout, boolean closePool, Path spill) throws Exception {
        ChunkPool pool = layout.builder("stress", CHUNK, 3, spill).build();
        try {
            LongArray array = pool.longs(LENGTH);
            LongArray witness = pool.longs(CHUNK / 8);
            witness.fill(99);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch ended = new CountDownLatch(1);
            List<Thread> users = new ArrayList<>();
            for (int u = 0; u < USERS; u++) {
                users.add(Thread.ofPlatform().start(() -> use(array, ended, failure)));
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 4));
            LongArray next = null;
            if (closePool) {
                pool.close();
            } else {
                array.release();
            }
            ended.countDown();
            if (!closePool) {
                next = pool.longs(LENGTH);
                next.fill(7);
            }
            for (Thread user : users) {
                user.join(30_000);
                if (user.isAlive()) {
                    throw new AssertionError("a user of a closed array never stopped");
                }
            }
            if (failure.get() != null) {
                throw new AssertionError(layout + (closePool ? " pool close" : " array release"), failure.get());
            }
            if (next != null) {
                for (long i = 0; i < LENGTH; i++) {
                    if (next.get(i) != 7) {
                        throw new AssertionError(layout + ": a stale user wrote " + next.get(i) + " at " + i
                                + " of the array that reused the chunks");
                    }
                }
                for (long i = 0; i < witness.length(); i++) {
                    if (witness.get(i) != 99) {
                        throw new AssertionError(layout + ": the witness array changed at " + i);
                    }
                }
                next.release();
            }
        } finally {
            pool.close();
        }
    }

    /**
     * Uses the array until it ends, then, once the close or release has returned (until then the array's
     * methods already throw but its segments still work: the memory is still the array's), checks that
     * every later use throws too.
     */
    private static void use(LongArray array, CountDownLatch ended, AtomicReference<Throwable> failure) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        MemorySegment kept = null;
        try {
            while (true) {
                try {
                    kept = step(array, random, kept);
                } catch (IllegalStateException end) {
                    break;
                }
            }
            // HotSpot delivers the end of a shared arena to a thread inside an access as an asynchronous
            // exception, and interrupts the thread to do so: the flag may be set now.
            Thread.interrupted();
            ended.await();
            for (int i = 0; i < STALE_TRIES; i++) {
                try {
                    step(array, random, kept);
                    failure.compareAndSet(null, new AssertionError("a use of an ended array did not throw"));
                    return;
                } catch (IllegalStateException expected) {
                    // the array and its views stay dead
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }

    /** One random access through the array or a view of it; returns a view to keep for later. */
    private static MemorySegment step(LongArray array, ThreadLocalRandom random, MemorySegment kept) {
        long index = random.nextLong(LENGTH);
        int count = (int) Math.min(LENGTH - index, random.nextInt(1, 3000));
        switch (random.nextInt(9)) {
            case 0 -> array.set(index, index);
            case 1 -> array.get(index);
            case 2 -> array.fill(index, index + count, random.nextLong());
            case 3 -> array.copyTo(index, new long[count], 0, count);
            case 4 -> array.copyFrom(new long[count], 0, index, count);
            case 5 -> array.copyTo(index, array, LENGTH - count, count);
            case 6 -> {
                MemorySegment[] last = new MemorySegment[1];
                array.forEachChunk((segment, first) -> {
                    long n = segment.byteSize() / Long.BYTES;
                    for (long i = 0; i < n; i += 509) {
                        segment.setAtIndex(ValueLayout.JAVA_LONG, i, segment.getAtIndex(ValueLayout.JAVA_LONG, i) + 1);
                    }
                    last[0] = segment;
                });
                return last[0];
            }
            case 7 -> {
                MemorySegment whole = array.contiguousSegment().orElse(null);
                if (whole != null) {
                    for (long i = 0; i < whole.byteSize(); i += 4093) {
                        whole.set(ValueLayout.JAVA_BYTE, i, (byte) 1);
                    }
                    return whole;
                }
                array.get(index);
            }
            default -> {
                if (kept != null) {
                    kept.set(ValueLayout.JAVA_LONG, 0, -1L);
                    kept.fill((byte) 5);
                } else {
                    array.get(index);
                }
            }
        }
        return kept;
    }
}
