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

import dev.offheap.account.MemoryBudget;
import dev.offheap.suite.Waits;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A closed mapped array leaves nothing that keeps it or its views alive: no MBean, no budget owner or
 * reclaimer, no thread-local, no registry. Fifty arrays with a budget and JMX, used from platform and virtual
 * threads, closed and dropped, are all collected.
 */
class MappedArrayReachabilityTest {
    private static final int ARRAYS = 50;

    @TempDir
    Path dir;

    @Test
    void closedAndDroppedArraysAndTheirViewsAreCollected() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited("reachability");
        List<WeakReference<Object>> refs = new ArrayList<>();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < ARRAYS; i++) {
            MappedArray array = MappedArray.create(dir.resolve(i + ".npy"), ElementType.INT, 10_000,
                    MappedArray.Options.defaults().budget(budget).name("reachability-" + i));
            IntArray kept = array.ints();
            AtomicInteger users = new AtomicInteger(2);
            refs.add(new WeakReference<>(array));
            refs.add(new WeakReference<>(kept));
            Runnable use = () -> {
                try {
                    use(array, kept, users);
                } catch (Throwable t) {
                    failures.add(t);
                }
            };
            threads.add(Thread.ofPlatform().start(use));
            threads.add(Thread.ofVirtual().start(use));
        }
        for (Thread thread : threads) {
            Waits.join(thread);
        }
        threads.clear();
        assertThat(failures).isEmpty();
        assertThat(budget.used()).isZero();
        for (int round = 0; round < 50 && refs.stream().anyMatch(r -> r.get() != null); round++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(refs.stream().filter(r -> r.get() != null).map(WeakReference::get).toList())
                .as("still reachable after close").isEmpty();
        budget.close();
    }

    /** Reads, writes, maps and forces from this thread; the last of its users closes the array. */
    private static void use(MappedArray array, IntArray kept, AtomicInteger users) throws IOException {
        try (IntArray view = array.ints()) {
            view.fill(7);
            view.copyTo(0, new int[100], 0, 100);
            kept.set(3, view.get(3));
            array.force();
        }
        if (users.decrementAndGet() == 0) {
            array.close();
        }
    }
}
