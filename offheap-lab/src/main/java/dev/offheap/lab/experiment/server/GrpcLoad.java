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

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop gRPC load client for {@link GrpcEchoServer}: one channel (one HTTP/2 connection, grpc-netty on
 * one NIO event loop with Netty's default allocator), {@code calls} unary calls of {@link GrpcEcho#METHOD} in
 * flight on it, each followed by the next as soon as its answer is in, for a fixed time. Every answer is compared
 * with what was sent; a mismatch or a failed call counts as an error and ends that loop of calls.
 *
 * <p>The shootout runs it in a JVM of its own ({@link GrpcClientProcess}): {@code GrpcLoad --port n --calls n
 * --size bytes}, then on standard input {@code run <milliseconds>} for each run, each answered with the run's
 * {@link LoadResult#line()}, until {@code stop} or the end of input.
 */
public final class GrpcLoad {
    /** The command that runs the load, followed by its duration in milliseconds. */
    static final String RUN = "run";
    private static final long GRACE_SECONDS = 10;

    private GrpcLoad() {}

    /** Serves {@code run} commands until {@code stop} or the end of standard input. */
    public static void main(String[] args) throws Exception {
        ServerArgs options = ServerArgs.parse(args);
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(options.text("port")));
        int calls = Integer.parseInt(options.text("calls"));
        int size = Integer.parseInt(options.text("size"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.strip().equals(AdminConsole.STOP);
                line = in.readLine()) {
            String[] words = line.strip().split("\\s+");
            if (words.length == 2 && words[0].equals(RUN)) {
                System.out.println(run(address, calls, size, Long.parseLong(words[1])).line());
                System.out.flush();
            }
        }
    }

    /**
     * Drives the server at {@code address}; latency is from the call's start to its answer's end. The run lasts
     * until the last call started within {@code millis} is answered.
     */
    public static LoadResult run(InetSocketAddress address, int calls, int messageSize, long millis)
            throws InterruptedException {
        EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ManagedChannel channel = NettyChannelBuilder.forAddress(address)
                .channelType(NioSocketChannel.class)
                .eventLoopGroup(loop)
                .usePlaintext()
                .directExecutor()
                .build();
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(calls);
        long start = System.nanoTime();
        long end = start + TimeUnit.MILLISECONDS.toNanos(millis);
        List<CallLoop> loops = new ArrayList<>();
        try {
            for (int i = 0; i < calls; i++) {
                loops.add(new CallLoop(channel, message(messageSize, i), end, done, errors));
            }
            loops.forEach(CallLoop::next);
            boolean inTime = done.await(millis + TimeUnit.SECONDS.toMillis(GRACE_SECONDS), TimeUnit.MILLISECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!inTime) {
                channel.shutdownNow(); // every call still out fails, counts as an error and ends its loop
                done.await(GRACE_SECONDS, TimeUnit.SECONDS);
            }
            long[] all = loops.stream().flatMapToLong(l -> Arrays.stream(l.latencies())).toArray();
            return LoadResult.of(all, seconds, errors.get());
        } finally {
            channel.shutdownNow().awaitTermination(GRACE_SECONDS, TimeUnit.SECONDS);
            loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
    }

    private static byte[] message(int size, int seed) {
        byte[] message = new byte[size];
        new SplittableRandom(seed).nextBytes(message);
        return message;
    }

    /**
     * One call in flight at a time, the next started from the previous one's completion, on the channel's
     * executor (the event loop); {@code done} counts down once the loop ends.
     */
    private static final class CallLoop implements StreamObserver<byte[]> {
        private final Channel channel;
        private final byte[] message;
        private final long end;
        private final CountDownLatch done;
        private final AtomicLong errors;
        private long[] latencies = new long[1024];
        private int count;
        private long sentAt;
        private boolean echoed;

        CallLoop(Channel channel, byte[] message, long end, CountDownLatch done, AtomicLong errors) {
            this.channel = channel;
            this.message = message;
            this.end = end;
            this.done = done;
            this.errors = errors;
        }

        void next() {
            sentAt = System.nanoTime();
            if (sentAt >= end) {
                done.countDown();
                return;
            }
            echoed = false;
            ClientCalls.asyncUnaryCall(channel.newCall(GrpcEcho.METHOD, CallOptions.DEFAULT), message, this);
        }

        @Override
        public void onNext(byte[] answer) {
            echoed = Arrays.equals(answer, message);
        }

        @Override
        public void onError(Throwable failure) {
            errors.incrementAndGet();
            done.countDown();
        }

        @Override
        public void onCompleted() {
            long latency = System.nanoTime() - sentAt;
            if (!echoed) {
                errors.incrementAndGet();
                done.countDown();
                return;
            }
            if (count == latencies.length) {
                latencies = Arrays.copyOf(latencies, count * 2);
            }
            latencies[count++] = latency;
            next();
        }

        /** The latencies in nanoseconds, once {@code done} counted this loop down. */
        long[] latencies() {
            return Arrays.copyOf(latencies, count);
        }
    }
}
