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

import dev.offheap.os.NativeMemory;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run in a child JVM by {@link CloseUnderUseTest}: threads keep filling, reading and copying through the views
 * of leases they hold (segments and ByteBuffers, kept across the close), while the main thread closes the
 * pool, or releases the leases. Every access must either work or throw {@link IllegalStateException}; a
 * SIGSEGV kills this JVM, which the parent sees.
 *
 * <p>Arguments: {@code default|checked|sampled}, {@code system|portable}, {@code pool-close|release}, rounds.
 * Prints {@code OK <threw> <accesses>} at the end.
 */
public final class CloseUnderUseChild {
    private CloseUnderUseChild() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        NativeMemory memory = args[1].equals("portable") ? NativeMemory.portable() : NativeMemory.system();
        boolean poolClose = args[2].equals("pool-close");
        int rounds = Integer.parseInt(args[3]);
        AtomicLong threw = new AtomicLong();
        AtomicLong accesses = new AtomicLong();
        int[] sizes = {64, 4096, 65536, 1 << 20, 3 << 20};
        for (int round = 0; round < rounds; round++) {
            BufferPool pool = BufferPool.builder().name("close-under-use").nativeMemory(memory)
                    .checked(mode.equals("checked")).useAfterReleaseSampling(mode.equals("sampled") ? 1 : 0)
                    .leakSampling(round % 2 == 0 ? 0 : 1).build();
            int workers = 3;
            CountDownLatch started = new CountDownLatch(workers);
            List<Thread> threads = new ArrayList<>();
            List<BufferLease> leases = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int size = sizes[(round + w) % sizes.length];
                BufferLease lease = pool.acquire(size);
                leases.add(lease);
                MemorySegment segment = lease.segment();
                ByteBuffer bb = lease.byteBuffer();
                int kind = w;
                threads.add(Thread.ofPlatform().start(() -> {
                    started.countDown();
                    byte[] scratch = new byte[Math.min(size, 8192)];
                    for (;;) {
                        try {
                            switch (kind) {
                                case 0 -> segment.fill((byte) 7);
                                case 1 -> {
                                    bb.clear();
                                    bb.put(scratch, 0, scratch.length);
                                    bb.getLong(0);
                                }
                                default -> {
                                    MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, 0, scratch, 0, scratch.length);
                                    segment.get(ValueLayout.JAVA_LONG_UNALIGNED, size - 8);
                                }
                            }
                            accesses.incrementAndGet();
                        } catch (IllegalStateException expected) {
                            threw.incrementAndGet();
                            return;
                        }
                    }
                }));
            }
            started.await();
            Thread.sleep(2);
            if (poolClose) {
                pool.close();
            } else {
                for (BufferLease lease : leases) {
                    lease.release();
                }
                // the slots may be lent again: a new lease that the stale views must not corrupt
                pool.trim();
            }
            for (Thread t : threads) {
                t.join(10_000);
                if (t.isAlive() && !poolClose && mode.equals("default")) {
                    // default mode: a view kept past release may still work while the slab lives
                    t.interrupt();
                }
            }
            if (!poolClose) {
                pool.close();
                for (Thread t : threads) {
                    t.join(10_000);
                    if (t.isAlive()) {
                        throw new AssertionError("a worker still runs after the pool closed: its views still work");
                    }
                }
            }
        }
        System.out.println("OK " + threw.get() + " " + accesses.get());
    }
}
