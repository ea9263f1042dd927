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

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM that inspect-cost.sh inspects: live data on the heap (1 GiB in 1 MiB arrays, every page touched) and a
 * few threads that read a little of it and sleep, allocating nothing once started, so that its RSS, threads and safepoints
 * only move when something looks at it. Prints READY when set up. Compiled for release 17, so that a JDK 17 can
 * run it too.
 */
public final class InspectCostTarget {
    private static final int MIB = 1 << 20;
    private static final List<byte[]> LIVE = new ArrayList<>();
    private static volatile long sink;

    private InspectCostTarget() {}

    public static void main(String[] args) throws Exception {
        int liveMib = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        for (int i = 0; i < liveMib; i++) {
            byte[] array = new byte[MIB];
            for (int j = 0; j < array.length; j += 4096) {
                array[j] = (byte) i;
            }
            LIVE.add(array);
        }
        for (int t = 0; t < threads; t++) {
            int first = t;
            Thread worker = new Thread(() -> work(first, threads), "worker-" + t);
            worker.setDaemon(true);
            worker.start();
        }
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Reads one byte per 64 KiB of its share of the arrays, then sleeps 20 ms; allocates nothing. */
    private static void work(int first, int step) {
        long sum = 0;
        while (true) {
            for (int i = first; i < LIVE.size(); i += step) {
                byte[] array = LIVE.get(i);
                for (int j = 0; j < array.length; j += 64 * 1024) {
                    sum += array[j];
                }
            }
            sink = sum;
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
