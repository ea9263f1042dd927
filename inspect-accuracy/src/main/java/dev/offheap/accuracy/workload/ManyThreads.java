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

package dev.offheap.accuracy.workload;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code platform} platform threads each parked {@code depth} frames deep (their stacks touched that far), and on
 * JDK 21+ {@code virtual} virtual threads parked (their stacks are heap objects).
 */
public final class ManyThreads {
    private ManyThreads() {}

    public static void main(String[] args) throws Exception {
        int platform = (int) Workload.arg(args, "platform", 2000);
        int depth = (int) Workload.arg(args, "depth", 200);
        int virtual = (int) Workload.arg(args, "virtual", 100_000);
        CountDownLatch parked = new CountDownLatch(platform);
        for (int i = 0; i < platform; i++) {
            Thread t = new Thread(() -> deep(depth, parked), "deep-" + i);
            t.setDaemon(true);
            t.start();
        }
        parked.await();
        AtomicLong started = new AtomicLong();
        if (virtual > 0 && Runtime.version().feature() >= 21) {
            // Thread.ofVirtual through reflection: the workloads compile for release 17
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            var start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
            for (int i = 0; i < virtual; i++) {
                start.invoke(builder, (Runnable) () -> {
                    started.incrementAndGet();
                    LockSupport.park();
                });
            }
            while (started.get() < virtual) {
                Thread.sleep(10);
            }
        }
        Workload.ready("threads", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("platformThreads", (long) platform);
            f.put("virtualThreads", started.get());
            return f;
        });
        Workload.hold();
    }

    private static void deep(int depth, CountDownLatch parked) {
        long[] frame = new long[8];
        if (depth == 0) {
            parked.countDown();
            LockSupport.park();
        } else {
            deep(depth - 1, parked);
        }
        if (frame[0] == 42) {
            System.out.println();
        }
    }
}
