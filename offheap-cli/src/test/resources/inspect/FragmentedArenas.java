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
import java.util.zip.Inflater;

/**
 * glibc's arenas fragmented, with nothing leaking: 8 threads each create 2,000 Inflaters (zlib's memory, about
 * 7 KiB each, in the threads' own arenas), keep one in ten and end the rest, so the freed memory lies between
 * chunks still in use and malloc cannot give it back. Then it holds still. Ends on stdin's end.
 */
public class FragmentedArenas {
    private static final List<Inflater> KEPT = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        int threads = 8;
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                List<Inflater> all = new ArrayList<>();
                for (int i = 0; i < 2_000; i++) {
                    Inflater inflater = new Inflater();
                    inflater.setInput(new byte[16]);
                    all.add(inflater);
                }
                List<Inflater> mine = new ArrayList<>();
                for (int i = 0; i < all.size(); i++) {
                    if (i % 10 == 0) {
                        mine.add(all.get(i));
                    } else {
                        all.get(i).end();
                    }
                }
                synchronized (KEPT) {
                    KEPT.addAll(mine);
                }
                done.countDown();
            }, "fragmenter-" + t).start();
        }
        done.await();
        System.out.println("READY");
        System.out.flush();
        while (System.in.read() >= 0) {
            // hold the arenas as they are until the test ends
        }
    }
}
