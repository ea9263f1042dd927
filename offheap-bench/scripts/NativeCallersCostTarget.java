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

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Inflater;

/**
 * A target busy in malloc at a steady rate: one thread creates and ends {@code args[0]} Inflaters a second (default
 * 50,000; zlib allocates and frees about 7 KiB each time, so about 100,000 mallocs and as many frees a second),
 * paced every millisecond, and one line a second prints how many so far. At a fixed rate, what a profiler costs
 * shows as CPU time (or, when the CPU runs out, as a lower rate).
 */
public class NativeCallersCostTarget {
    public static void main(String[] args) throws Exception {
        long perSecond = args.length > 0 ? Long.parseLong(args[0]) : 50_000;
        LongAdder done = new LongAdder();
        Thread worker = new Thread(() -> {
            byte[] input = new byte[64];
            long start = System.nanoTime();
            long made = 0;
            while (true) {
                long due = (System.nanoTime() - start) * perSecond / 1_000_000_000L;
                for (; made < due; made++) {
                    Inflater inflater = new Inflater();
                    inflater.setInput(input);
                    inflater.end();
                    done.increment();
                }
                LockSupport.parkNanos(1_000_000);
            }
        }, "inflater");
        worker.setDaemon(true);
        worker.start();
        System.out.println("READY");
        while (true) {
            Thread.sleep(1000);
            System.out.println("done " + done.sum() + " " + System.currentTimeMillis());
        }
    }
}
