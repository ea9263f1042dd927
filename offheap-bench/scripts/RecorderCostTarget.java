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

/**
 * The busy target of offheap-bench/recorder-cost.sh: WORKERS threads (args[0]) each building and dropping small
 * maps in a loop (CPU and allocation, young GCs), IDLE threads (args[1]) parked as a service's pools keep them;
 * prints its work done so far once a second ("done N").
 */
public class RecorderCostTarget {
    public static void main(String[] args) throws Exception {
        int workers = Integer.parseInt(args[0]);
        int idle = Integer.parseInt(args[1]);
        LongAdder done = new LongAdder();
        for (int i = 0; i < idle; i++) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "idle-" + i);
            t.setDaemon(true);
            t.start();
        }
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(() -> {
                long sink = 0;
                while (true) {
                    java.util.HashMap<Integer, String> m = new java.util.HashMap<>();
                    for (int k = 0; k < 64; k++) {
                        m.put(k, Integer.toString(k));
                    }
                    sink += m.size();
                    done.increment();
                    if (sink == 42) {
                        System.out.println(sink);
                    }
                }
            }, "worker-" + i);
            t.setDaemon(true);
            t.start();
        }
        System.out.println("ready");
        while (true) {
            Thread.sleep(1000);
            System.out.println("done " + done.sum());
        }
    }
}
