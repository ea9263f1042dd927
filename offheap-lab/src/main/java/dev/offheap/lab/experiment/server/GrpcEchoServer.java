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

import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A gRPC server on grpc-netty (the unshaded transport, on the project's Netty) serving {@link GrpcEcho}'s unary
 * echo. The allocator is {@code --allocator} (see {@link NettyAllocators}, the same four as the Netty HTTP and
 * echo servers), set as both option and child option through {@link NettyServerBuilder}; the event loops are
 * the server's own ({@link NettyLoops}), so that the configuration's trim reaches them. Everything else is
 * gRPC's default, its executor included: the service runs, and writes its answer into a buffer from the
 * allocator, on one of gRPC's executor threads, and the event loop that sends it releases it.
 *
 * <p>Usage: {@code GrpcEchoServer --allocator offheap|adaptive|pooled|unpooled [--port n]}.
 */
public final class GrpcEchoServer {
    private GrpcEchoServer() {}

    /** Runs the server until {@code stop} or the end of standard input. */
    public static void main(String[] args) throws Exception {
        ServerArgs options = ServerArgs.parse(args);
        NettyAllocators.Allocator allocator = NettyAllocators.named(options.text("allocator"));
        try (NettyLoops loops = NettyLoops.nio(); AutoCloseable owned = allocator.owned()) {
            Server server = NettyServerBuilder
                    .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.number("port", 0)))
                    .channelType(NioServerSocketChannel.class)
                    .bossEventLoopGroup(loops.boss())
                    .workerEventLoopGroup(loops.workers())
                    .withOption(ChannelOption.ALLOCATOR, allocator.allocator())
                    .withChildOption(ChannelOption.ALLOCATOR, allocator.allocator())
                    .addService(GrpcEcho.service())
                    .build()
                    .start();
            try {
                AdminConsole.announce(server.getPort());
                AdminConsole.serve(() -> allocator.trim().accept(loops.workers()), allocator.directBytes());
            } finally {
                server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
            }
        }
    }
}
