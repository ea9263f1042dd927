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
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A Netty HTTP/1.1 server (NIO transport, {@link HttpServerCodec}, keep-alive) answering every GET with a body
 * of {@code --body} bytes (16 KiB by default) written into a direct buffer from {@code ctx.alloc()} per
 * request; the allocator is {@code --allocator} (see {@link NettyAllocators}), set as both option and
 * child option. {@code GET /idle} answers what the admin console's {@code idle} does.
 *
 * <p>Usage: {@code NettyHttpServer --allocator offheap|adaptive|pooled|unpooled [--body bytes] [--port n]}.
 */
public final class NettyHttpServer {
    private NettyHttpServer() {}

    /** Runs the server until {@code stop} or the end of standard input. */
    public static void main(String[] args) throws Exception {
        ServerArgs options = ServerArgs.parse(args);
        NettyAllocators.Allocator allocator = NettyAllocators.named(options.text("allocator"));
        int size = options.number("body", 16 * 1024);
        try (NettyLoops loops = NettyLoops.nio(); AutoCloseable owned = allocator.owned()) {
            Runnable trim = () -> allocator.trim().accept(loops.workers());
            Responder responder = new Responder(Body.of(size), trim);
            Channel channel = new ServerBootstrap().group(loops.boss(), loops.workers())
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, allocator.allocator())
                    .childOption(ChannelOption.ALLOCATOR, allocator.allocator())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), responder);
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), options.number("port", 0)).sync().channel();
            AdminConsole.announce(((InetSocketAddress) channel.localAddress()).getPort());
            AdminConsole.serve(trim, allocator.directBytes());
            channel.close().sync();
        }
    }

    /** Answers each request's head; the request's content, if any, is released unread. */
    @ChannelHandler.Sharable
    private static final class Responder extends ChannelInboundHandlerAdapter {
        private final byte[] body;
        private final Runnable trim;

        Responder(byte[] body, Runnable trim) {
            this.body = body;
            this.trim = trim;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest request) {
                    respond(ctx, request);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        private void respond(ChannelHandlerContext ctx, HttpRequest request) {
            ByteBuf content;
            if (request.uri().equals("/idle")) {
                byte[] text = ("rss_kib=" + AdminConsole.idle(trim) + "\n").getBytes(StandardCharsets.US_ASCII);
                content = ctx.alloc().directBuffer(text.length).writeBytes(text);
            } else {
                content = ctx.alloc().directBuffer(body.length).writeBytes(body);
            }
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    content);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
            if (HttpUtil.isKeepAlive(request)) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
