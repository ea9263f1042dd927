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

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** {@code args[0]} virtual threads parked 20 frames deep: their stacks are heap objects. Ends on stdin's end. */
public class ParkedVirtualThreads {
    private static final AtomicInteger PARKING = new AtomicInteger();

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        for (int i = 0; i < count; i++) {
            Thread.ofVirtual().start(() -> deep(20));
        }
        while (PARKING.get() < count) {
            Thread.sleep(10);
        }
        Thread.sleep(200); // the last ones unmount
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the threads until the test ends
        }
    }

    private static void deep(int depth) {
        if (depth == 0) {
            PARKING.incrementAndGet();
            LockSupport.park();
        } else {
            deep(depth - 1);
        }
    }
}
