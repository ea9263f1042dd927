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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Run in a child JVM by {@link MappedCloseUnderLoadTest}: round after round, platform and virtual threads read and
 * write a mapped array through views (one of them taken after a grow), the segment a view handed out, bulk
 * copies, fills and new views, while the main thread closes the array under them. Every thread must end with
 * an {@link IllegalStateException} (naming the file, except the JDK's own for a raw segment); anything else
 * is printed as {@code UNEXPECTED} and the exit code is 1. A crash leaves no {@code ROUNDS} line.
 *
 * <p>Arguments: directory, rounds.
 */
public final class MappedCloseUnderLoadChild {
    private static final int LENGTH = 1 << 16;

    private MappedCloseUnderLoadChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
        for (int round = 0; round < rounds; round++) {
            Path file = dir.resolve("load-" + round + ".npy");
            MappedArray array = MappedArray.create(file, ElementType.LONG, LENGTH);
            LongArray first = array.longs();
            array.grow(2 * LENGTH);
            LongArray grown = array.longs();
            MemorySegment segment = first.contiguousSegment().orElseThrow();
            CountDownLatch started = new CountDownLatch(4);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                LongArray mine = t % 2 == 0 ? first : grown;
                LongArray theirs = t % 2 == 0 ? grown : first;
                Runnable work = () -> work(array, file, mine, theirs, segment, started, unexpected);
                threads.add(t < 2 ? Thread.ofPlatform().start(work) : Thread.ofVirtual().start(work));
            }
            started.await();
            Thread.sleep(ThreadLocalRandom.current().nextInt(3));
            array.close();
            for (Thread thread : threads) {
                thread.join(10_000);
                if (thread.isAlive()) {
                    unexpected.add("a thread still runs 10 s after close");
                }
            }
            Files.delete(file);
        }
        unexpected.forEach(u -> System.out.println("UNEXPECTED " + u));
        System.out.println("ROUNDS " + rounds);
        System.exit(unexpected.isEmpty() ? 0 : 1);
    }

    /** Uses the array until it is closed; the first {@link IllegalStateException} ends the thread. */
    private static void work(MappedArray array, Path file, LongArray mine, LongArray theirs, MemorySegment segment,
            CountDownLatch started, ConcurrentLinkedQueue<String> unexpected) {
        long[] buffer = new long[256];
        ThreadLocalRandom random = ThreadLocalRandom.current();
        started.countDown();
        int op = -1;
        try {
            for (long n = 0; ; n++) {
                op = random.nextInt(9);
                int at = random.nextInt(LENGTH - 256);
                switch (op) {
                    case 0 -> mine.set(at, mine.get(at + 1) + n);
                    case 1 -> mine.fill(at, at + 256, n);
                    case 2 -> mine.copyTo(at, buffer, 0, 256);
                    case 3 -> mine.copyFrom(buffer, 0, at, 256);
                    case 4 -> mine.copyTo(at, theirs, LENGTH - 256 - at, 256);
                    case 5 -> mine.toArray(at, at + 16);
                    case 6 -> mine.forEachChunk((s, first) -> s.get(ValueLayout.JAVA_LONG, 8L * at));
                    case 7 -> {
                        try (LongArray view = array.longs()) {
                            view.set(at, n);
                        }
                    }
                    default -> segment.set(ValueLayout.JAVA_LONG, 8L * at, segment.get(ValueLayout.JAVA_LONG, 0) + 1);
                }
            }
        } catch (IllegalStateException e) {
            if (op != 8 && !String.valueOf(e.getMessage()).contains(file.toString())) {
                unexpected.add("operation " + op + ": the message does not name the file: " + e);
            }
        } catch (Throwable t) {
            unexpected.add("operation " + op + ": " + t);
        }
    }
}
