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

package dev.offheap.lab.experiment.gc;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Child JVM main: seed 000's DirectMemoryChaser, an endless loop of 1 KiB buffers, bounded in time here.
 * {@code direct} drops each {@code allocateDirect(1024)}; {@code pool} leases 1 KiB from a budgeted pool
 * and releases it; {@code pool-leak} leases and never releases, so the budget must stop it: it runs until the
 * budget refuses a lease, however long that takes (the parent's deadline bounds it), and keeps its leases
 * reachable, as a leaking application does, so the pool's leak detector cannot hand their memory back.
 * Prints {@code rss <index> <KiB>} every interval, then {@code outcome=...} and {@code peakRssKib=...}.
 *
 * <p>Arguments: mode, milliseconds to run, sample interval in milliseconds, budget in bytes.
 */
public final class Chaser {
    private Chaser() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        long millis = Long.parseLong(args[1]);
        long interval = Long.parseLong(args[2]);
        long budget = Long.parseLong(args[3]);
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            for (int i = 0; !Thread.currentThread().isInterrupted(); i++) {
                System.out.println("rss " + i + " " + ProcStatus.rssKib());
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        String outcome = "ran " + millis + " ms without failing";
        long buffers = 0;
        long end = Long.MAX_VALUE;
        boolean leak = mode.equals("pool-leak");
        List<BufferLease> leaked = new ArrayList<>();
        try (BufferPool pool = BufferPool.builder().name("lab-chaser").jmx(false)
                .budget(MemoryBudget.root("chaser", budget)).build()) {
            end = System.nanoTime() + millis * 1_000_000;
            while (leak || (buffers & 1023) != 0 || System.nanoTime() < end) {
                switch (mode) {
                    case "direct" -> ByteBuffer.allocateDirect(1024).put(0, (byte) 1);
                    case "pool" -> {
                        try (BufferLease lease = pool.acquire(1024)) {
                            lease.byteBuffer().put(0, (byte) 1);
                        }
                    }
                    default -> {
                        BufferLease lease = pool.acquire(1024);
                        lease.byteBuffer().put(0, (byte) 1);
                        leaked.add(lease);
                    }
                }
                buffers++;
            }
        } catch (OutOfMemoryError | BudgetExceededException e) {
            outcome = "stopped after " + buffers + " buffers by " + e.getClass().getSimpleName() + ": "
                    + e.getMessage();
            Thread.sleep(Math.clamp((end - System.nanoTime()) / 1_000_000, 0, millis));
        }
        sampler.interrupt();
        sampler.join();
        System.out.println("buffers=" + buffers);
        System.out.println("outcome=" + outcome.replace('\n', ' '));
        System.out.println("peakRssKib=" + ProcStatus.peakRssKib());
    }
}
