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

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * A Netty TCP echo server (NIO transport): every buffer read, allocated by the channel's allocator, is written
 * back as is. The allocator is {@code --allocator} (see {@link NettyAllocators}), set as both option and
 * child option.
 *
 * <p>Usage: {@code NettyEchoServer --allocator offheap|adaptive|pooled|unpooled [--port n]}.
 */
public final class NettyEchoServer {
    private NettyEchoServer() {}

    /** Runs the server until {@code stop} or the end of standard input. */
    public static void main(String[] args) throws Exception {
        ServerArgs options = ServerArgs.parse(args);
        NettyAllocators.Allocator allocator = NettyAllocators.named(options.text("allocator"));
        try (NettyLoops loops = NettyLoops.nio(); AutoCloseable owned = allocator.owned()) {
            Runnable trim = () -> allocator.trim().accept(loops.workers());
            Echo echo = new Echo();
            Channel channel = new ServerBootstrap().group(loops.boss(), loops.workers())
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, allocator.allocator())
                    .childOption(ChannelOption.ALLOCATOR, allocator.allocator())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(echo);
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), options.number("port", 0)).sync().channel();
            AdminConsole.announce(((InetSocketAddress) channel.localAddress()).getPort());
            AdminConsole.serve(trim, allocator.directBytes());
            channel.close().sync();
        }
    }

    /** Writes back what it reads, flushing once per read burst. */
    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
