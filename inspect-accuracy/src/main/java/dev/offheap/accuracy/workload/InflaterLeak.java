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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * The classic native leak: threads create {@link Deflater}s and {@link Inflater}s, use them, and never call
 * {@code end()}. Each thread keeps about half of what it made (the leak) and drops the rest, which the JDK's
 * Cleaner frees after a GC in no particular order: zlib's buffers (64 KiB windows and tables, malloc'd by
 * zlib inside the JDK) are freed from other threads than the ones that allocated them, across glibc's
 * per-thread arenas, which leaves holes (fragmentation). The threads then stay alive, idle, while the
 * process is measured. Run under jemalloc (LD_PRELOAD) for the same program with another allocator.
 *
 * <p>Arguments: {@code threads=8 keep=120 make=240 input=65536}: per thread, {@code make} pairs created,
 * {@code keep} of them kept; {@code input} bytes deflated and inflated by each pair.
 */
public final class InflaterLeak {
    private static final List<Object> KEPT = new ArrayList<>();
    private static final AtomicLong MADE = new AtomicLong();

    private InflaterLeak() {}

    public static void main(String[] args) throws Exception {
        int threads = (int) Workload.arg(args, "threads", 8);
        int keep = (int) Workload.arg(args, "keep", 120);
        int make = (int) Workload.arg(args, "make", 240);
        int input = (int) Workload.arg(args, "input", 64 * 1024);
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            Thread worker = new Thread(() -> {
                try {
                    work(seed, keep, make, input);
                } catch (DataFormatException e) {
                    throw new IllegalStateException(e);
                } finally {
                    done.countDown();
                }
                try {
                    Workload.hold(); // alive while measured: its arena stays its own, its stack in use
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "leaker-" + t);
            workers.add(worker);
            worker.start();
        }
        while (!done.await(200, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            System.gc(); // lets the Cleaner free the dropped ones while the others still allocate
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(300);
        }
        Workload.ready("inflater-leak", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("threads", (long) threads);
            f.put("made", MADE.get());
            synchronized (KEPT) {
                f.put("keptPairs", (long) KEPT.size() / 2);
            }
            return f;
        });
        Workload.hold();
    }

    private static void work(long seed, int keep, int make, int input) throws DataFormatException {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] data = new byte[input];
        // text-like data: compressible, so deflate's window, hash chains and match buffers all get used
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + (random.nextInt(26) * random.nextInt(26)) % 26);
        }
        byte[] compressed = new byte[input + 1024];
        byte[] restored = new byte[input];
        List<Object> mine = new ArrayList<>();
        for (int i = 0; i < make; i++) {
            Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
            deflater.setInput(data);
            deflater.finish();
            int length = deflater.deflate(compressed);
            Inflater inflater = new Inflater();
            inflater.setInput(compressed, 0, length);
            inflater.inflate(restored);
            MADE.incrementAndGet();
            if (mine.size() / 2 < keep && (random.nextBoolean() || make - i <= keep - mine.size() / 2)) {
                mine.add(deflater);
                mine.add(inflater);
            }
            // neither end() nor close(): the dropped ones wait for the Cleaner, the kept ones leak
        }
        synchronized (KEPT) {
            KEPT.addAll(mine);
        }
    }
}
