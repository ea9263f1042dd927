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

package dev.offheap.netty;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.buffer.BufferPool;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetAddress;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real Netty echo server and client over loopback, both on offheap's allocator: Netty's NIO transport reads
 * into and writes from offheap's buffers, bytes arrive intact, and every lease goes back to the pool.
 */
class OffheapEchoServerTest {

    @Test
    void nettyReadsAndWritesThroughThePool() throws Exception {
        byte[] sent = new byte[1 << 20];
        new Random(5).nextBytes(sent);
        Set<Class<?>> inboundTypes = ConcurrentHashMap.newKeySet();
        try (BufferPool pool = BufferPool.builder().name("netty-echo").jmx(false).build()) {
            OffheapByteBufAllocator alloc = new OffheapByteBufAllocator(pool);
            EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
            try {
                Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                        .option(ChannelOption.ALLOCATOR, alloc)
                        .childOption(ChannelOption.ALLOCATOR, alloc)
                        .childHandler(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf buf = (ByteBuf) msg;
                                inboundTypes.add((buf.unwrap() != null ? buf.unwrap() : buf).getClass());
                                ctx.writeAndFlush(msg); // written back, then released by Netty
                            }
                        })
                        .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();

                ByteBuf received = alloc.directBuffer(sent.length);
                CompletableFuture<Void> allBack = new CompletableFuture<>();
                Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                        .option(ChannelOption.ALLOCATOR, alloc)
                        .handler(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ByteBuf buf = (ByteBuf) msg;
                                received.writeBytes(buf);
                                buf.release();
                                if (received.readableBytes() == sent.length) {
                                    allBack.complete(null);
                                }
                            }
                        })
                        .connect(server.localAddress()).sync().channel();
                for (int offset = 0; offset < sent.length; offset += 64 * 1024) {
                    ByteBuf chunk = alloc.directBuffer(64 * 1024).writeBytes(sent, offset, 64 * 1024);
                    client.writeAndFlush(chunk);
                }
                allBack.get(30, TimeUnit.SECONDS);

                byte[] echoed = new byte[sent.length];
                received.readBytes(echoed);
                received.release();
                assertThat(echoed).isEqualTo(sent);
                assertThat(inboundTypes).containsOnly(OffheapDirectByteBuf.class);
                client.close().sync();
                server.close().sync();
            } finally {
                group.shutdownGracefully(0, 0, TimeUnit.SECONDS).sync();
            }
            assertThat(pool.stats().acquires()).isGreaterThan(16);
            assertThat(pool.stats().leases()).as("every buffer Netty took went back").isZero();
        }
    }
}
