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
import java.util.concurrent.CountDownLatch;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Issue 12's Inflater leak, a single-file program that runs on JDK 17 and later: 8 threads each create
 * Inflaters and Deflaters (zlib's state is malloc'd, about 7 KiB and 256 KiB each) and never end them, so
 * glibc's arenas hold them until the Cleaner runs. Prints READY and sleeps until killed.
 */
public class InflaterLeak {
    static final List<Object> KEEP = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        int threads = 8;
        int each = Integer.parseInt(args.length > 0 ? args[0] : "120");
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                List<Object> mine = new ArrayList<>();
                byte[] out = new byte[64];
                for (int i = 0; i < each; i++) {
                    Deflater deflater = new Deflater();
                    deflater.setInput(new byte[1024]);
                    deflater.finish();
                    deflater.deflate(out);
                    Inflater inflater = new Inflater();
                    inflater.setInput(out);
                    mine.add(deflater);
                    mine.add(inflater);
                }
                synchronized (KEEP) {
                    KEEP.add(mine);
                }
                done.countDown();
            }, "leaker-" + t).start();
        }
        done.await();
        System.out.println("READY");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
