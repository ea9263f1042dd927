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
package dev.offheap.bench;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.buffer.LeaseTokens;
import dev.offheap.netty.OffheapByteBufAllocator;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The allocators of {@link NettyAllocatorBenchmark} and the core pool itself in a plain program (no JMH), as a
 * user's program would run them: one allocator per launch (a launcher script interleaves them), every shape in
 * a method of its own, rounds of each shape one after another so that each method has seen every size before
 * the last round is read, on a plain thread or on a {@code FastThreadLocalThread} (Netty's event-loop thread
 * type).
 *
 * <p>Shapes: {@code cycle} (directBuffer, a byte, internalNioBuffer once, release: Netty's socket path) at
 * 128 B, 1 KiB, 16 KiB, 64 KiB and random sizes; {@code pattern} (Netty's allocation pattern: 8192 live
 * buffers, a random one released and reallocated per step) at 1 KiB and 16 KiB. For the core pool
 * ({@code pool}): {@code acquire} + a byte through {@code segment()} + release, the same through
 * {@code byteBuffer()}, and a token lease.
 *
 * <pre>{@code
 * java -Xms1g -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED -Dio.netty.allocator.useCacheForAllThreads=true \
 *     -cp offheap-bench/target/benchmarks.jar dev.offheap.bench.PlainAllocators offheap event-loop
 * }</pre>
 * Prints one line per shape and size: the last round's ns per operation (and the rounds before it).
 */
public final class PlainAllocators {
    private static final int ROUNDS = 6;
    private static final long OPS_PER_ROUND = 4_000_000;
    private static final int LIVE = 8192;
    private static final int[] SIZES = {128, 1024, 16384, 65536};

    private PlainAllocators() {}

    public static void main(String[] args) throws Exception {
        String allocator = args[0];
        boolean eventLoop = args.length > 1 && args[1].equals("event-loop");
        Runnable run = () -> {
            try {
                run(allocator);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        Thread thread = eventLoop ? new FastThreadLocalThread(run, "plain-event-loop") : new Thread(run, "plain");
        thread.start();
        thread.join();
    }

    private static void run(String name) {
        BufferPool pool = BufferPool.create();
        List<String> lines = new ArrayList<>();
        if (name.equals("pool")) {
            for (int size : SIZES) {
                double[] seg = new double[ROUNDS];
                double[] bb = new double[ROUNDS];
                double[] tok = new double[ROUNDS];
                for (int round = 0; round < ROUNDS; round++) {
                    seg[round] = segmentCycle(pool, size);
                    bb[round] = byteBufferCycle(pool, size);
                    tok[round] = tokenCycle(pool.tokens(), size);
                }
                lines.add(line("pool-segment", size, seg));
                lines.add(line("pool-bytebuffer", size, bb));
                lines.add(line("pool-token", size, tok));
            }
        } else {
            ByteBufAllocator alloc = switch (name) {
                case "offheap" -> new OffheapByteBufAllocator(pool);
                case "offheap-recycling" -> OffheapByteBufAllocator.builder(pool).recycleBuffers(true).build();
                case "netty-pooled" -> Allocator.nettyPooled();
                case "netty-adaptive" -> new AdaptiveByteBufAllocator(true, true);
                default -> throw new IllegalArgumentException("unknown allocator " + name);
            };
            int[] random = RandomSizes.table();
            for (int size : new int[] {128, 1024, 16384, 65536, -1}) {
                int[] sizes = size < 0 ? random : new int[] {size};
                double[] ns = new double[ROUNDS];
                for (int round = 0; round < ROUNDS; round++) {
                    ns[round] = cycle(alloc, sizes);
                }
                lines.add(line("cycle", size, ns));
            }
            for (int size : new int[] {1024, 16384}) {
                double[] ns = new double[ROUNDS];
                ByteBuf[] live = new ByteBuf[LIVE];
                for (int round = 0; round < ROUNDS; round++) {
                    ns[round] = pattern(alloc, size, live);
                }
                for (ByteBuf buf : live) {
                    if (buf != null) {
                        buf.release();
                    }
                }
                lines.add(line("pattern", size, ns));
            }
        }
        String thread = Thread.currentThread() instanceof FastThreadLocalThread ? "event-loop" : "plain";
        for (String line : lines) {
            System.out.println(name + " " + thread + " " + line);
        }
        pool.close();
    }

    private static String line(String shape, int size, double[] ns) {
        StringBuilder rounds = new StringBuilder();
        for (int i = 0; i < ns.length - 1; i++) {
            rounds.append(String.format(Locale.ROOT, "%s%.1f", i == 0 ? "" : " ", ns[i]));
        }
        return String.format(Locale.ROOT, "%s %s %.1f ns (rounds before: %s)", shape,
                size < 0 ? "random" : Integer.toString(size), ns[ns.length - 1], rounds);
    }

    private static double cycle(ByteBufAllocator alloc, int[] sizes) {
        int mask = sizes.length - 1;
        long t0 = System.nanoTime();
        for (long i = 0; i < OPS_PER_ROUND; i++) {
            int size = sizes[(int) i & mask];
            ByteBuf buf = alloc.directBuffer(size);
            buf.writeByte(1);
            ByteBuffer nio = buf.internalNioBuffer(0, size);
            if (nio.remaining() != size) {
                throw new AssertionError(nio);
            }
            buf.release();
        }
        return (System.nanoTime() - t0) / (double) OPS_PER_ROUND;
    }

    private static double pattern(ByteBufAllocator alloc, int size, ByteBuf[] live) {
        SplittableRandom random = new SplittableRandom(42);
        long t0 = System.nanoTime();
        for (long i = 0; i < OPS_PER_ROUND; i++) {
            int index = random.nextInt(LIVE);
            ByteBuf old = live[index];
            if (old != null) {
                old.release();
            }
            live[index] = alloc.directBuffer(size);
        }
        return (System.nanoTime() - t0) / (double) OPS_PER_ROUND;
    }

    private static double segmentCycle(BufferPool pool, int size) {
        long t0 = System.nanoTime();
        for (long i = 0; i < OPS_PER_ROUND; i++) {
            BufferLease lease = pool.acquire(size);
            lease.segment().set(ValueLayout.JAVA_BYTE, 0, (byte) i);
            lease.release();
        }
        return (System.nanoTime() - t0) / (double) OPS_PER_ROUND;
    }

    private static double byteBufferCycle(BufferPool pool, int size) {
        long t0 = System.nanoTime();
        for (long i = 0; i < OPS_PER_ROUND; i++) {
            BufferLease lease = pool.acquire(size);
            lease.byteBuffer().put(0, (byte) i);
            lease.release();
        }
        return (System.nanoTime() - t0) / (double) OPS_PER_ROUND;
    }

    private static double tokenCycle(LeaseTokens tokens, int size) {
        long t0 = System.nanoTime();
        for (long i = 0; i < OPS_PER_ROUND; i++) {
            long token = tokens.acquire(size);
            MemorySegment memory = tokens.segment(token);
            memory.set(ValueLayout.JAVA_BYTE, 0, (byte) i);
            tokens.release(token);
        }
        return (System.nanoTime() - t0) / (double) OPS_PER_ROUND;
    }
}
