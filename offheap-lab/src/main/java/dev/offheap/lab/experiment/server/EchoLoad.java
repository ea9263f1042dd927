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

package dev.offheap.lab.experiment.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop TCP echo load client (wrk speaks HTTP only): {@code connections} connections, each on a
 * virtual thread, sending a message and reading it back whole before the next, for a fixed time. Every
 * echo is compared with what was sent; a mismatch counts as an error and ends that connection.
 */
public final class EchoLoad {
    private EchoLoad() {}

    /** Drives the echo server at {@code address}; latency is from the first byte written to the last read. */
    public static LoadResult run(InetSocketAddress address, int connections, int messageSize, long millis)
            throws InterruptedException {
        AtomicLong errors = new AtomicLong();
        List<SocketChannel> channels = java.util.Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        long end = start + millis * 1_000_000;
        List<Future<long[]>> runs = new ArrayList<>();
        List<long[]> latencies = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < connections; i++) {
                int seed = i;
                runs.add(threads.submit(() -> connection(address, messageSize, end, seed, channels, errors)));
            }
            for (Future<long[]> run : runs) {
                try {
                    latencies.add(run.get(Math.max(0, end - System.nanoTime()) + TimeUnit.SECONDS.toNanos(10),
                            TimeUnit.NANOSECONDS));
                } catch (java.util.concurrent.ExecutionException e) {
                    errors.incrementAndGet();
                } catch (TimeoutException e) {
                    errors.incrementAndGet();
                    run.cancel(true);
                }
            }
            synchronized (channels) {
                for (SocketChannel channel : channels) {
                    try {
                        channel.close();
                    } catch (IOException e) {
                        // closing a connection the server already dropped
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] all = latencies.stream().flatMapToLong(Arrays::stream).toArray();
        return LoadResult.of(all, seconds, errors.get());
    }

    private static long[] connection(InetSocketAddress address, int size, long end, int seed,
            List<SocketChannel> channels, AtomicLong errors) {
        long[] latencies = new long[1024];
        int count = 0;
        byte[] message = new byte[size];
        new SplittableRandom(seed).nextBytes(message);
        ByteBuffer out = ByteBuffer.allocateDirect(size);
        ByteBuffer in = ByteBuffer.allocateDirect(size);
        ByteBuffer expected = ByteBuffer.wrap(message);
        try (SocketChannel channel = SocketChannel.open(address)) {
            channels.add(channel);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            while (System.nanoTime() < end) {
                long sent = System.nanoTime();
                out.clear().put(message).flip();
                while (out.hasRemaining()) {
                    channel.write(out);
                }
                in.clear();
                while (in.hasRemaining()) {
                    if (channel.read(in) < 0) {
                        throw new IOException("server closed the connection");
                    }
                }
                long now = System.nanoTime();
                if (!in.flip().equals(expected.rewind())) {
                    throw new IOException("the echo differs from the message sent");
                }
                if (count == latencies.length) {
                    latencies = Arrays.copyOf(latencies, count * 2);
                }
                latencies[count++] = now - sent;
            }
        } catch (IOException e) {
            errors.incrementAndGet();
        }
        return Arrays.copyOf(latencies, count);
    }
}
