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
import java.util.zip.Inflater;

/**
 * A native leak as it happens: 20 Inflaters every 100 ms (about 1.4 MiB a second of zlib's memory), kept and
 * never ended. With {@code healthy}, each is ended at once: the same calls, nothing held. Ends on stdin's end.
 */
public class InflaterLeakLive {
    private static final List<Inflater> KEPT = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        boolean healthy = args.length > 0 && args[0].equals("healthy");
        Thread leaker = new Thread(() -> {
            while (true) {
                for (int i = 0; i < 20; i++) {
                    Inflater inflater = new Inflater();
                    inflater.setInput(new byte[16]);
                    if (healthy) {
                        inflater.end();
                    } else {
                        KEPT.add(inflater);
                    }
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "leaker");
        leaker.setDaemon(true);
        leaker.start();
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // leak until the test ends
        }
    }
}
