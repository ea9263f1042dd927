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

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Netty 4.2 HTTP echo server with Netty's default allocator ({@code ByteBufAllocator.DEFAULT}, direct
 * buffers), under a closed-loop load generator in the same process: client threads on loopback, each with one
 * keep-alive connection, POST a body and read the echo, pausing between requests so the load stays steady
 * and leaves CPU for the measurement. The load keeps running while the process is measured.
 *
 * <p>Arguments: {@code clients=64 body=1048576 pauseMillis=10 warmupSeconds=20}.
 */
public final class NettyHttp {
    private static final AtomicLong REQUESTS = new AtomicLong();
    private static final AtomicLong ERRORS = new AtomicLong();

    private NettyHttp() {}

    public static void main(String[] args) throws Exception {
        int clients = (int) Workload.arg(args, "clients", 64);
        int body = (int) Workload.arg(args, "body", 1024 * 1024);
        long pause = Workload.arg(args, "pauseMillis", 10);
        long warmup = Workload.arg(args, "warmupSeconds", 20);
        EventLoopGroup boss = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup workers = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(boss, workers).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(4 << 20), new Echo());
                    }
                }).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        Workload.log("netty " + ByteBufAllocator.DEFAULT.getClass().getSimpleName() + " on port " + port);
        byte[] payload = new byte[body];
        for (int i = 0; i < body; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        for (int c = 0; c < clients; c++) {
            Thread client = new Thread(() -> client(port, payload, pause), "client-" + c);
            client.setDaemon(true);
            client.start();
        }
        long until = System.nanoTime() + warmup * 1_000_000_000L;
        while (System.nanoTime() < until) {
            Thread.sleep(1000);
        }
        Workload.ready("netty-http", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("clients", (long) clients);
            f.put("requests", REQUESTS.get());
            f.put("errors", ERRORS.get());
            f.put("nettyUsedDirectMemory", PlatformDependent.usedDirectMemory());
            if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider metrics) {
                f.put("allocatorUsedDirectMemory", metrics.metric().usedDirectMemory());
                f.put("allocatorUsedHeapMemory", metrics.metric().usedHeapMemory());
            }
            return f;
        });
        Workload.hold();
    }

    private static final class Echo extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    request.content().retainedDuplicate());
            HttpUtil.setContentLength(response, response.content().readableBytes());
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/octet-stream");
            ctx.writeAndFlush(response);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ERRORS.incrementAndGet();
            ctx.close();
        }
    }

    /** One keep-alive connection: POST, read the echoed body, pause, again; reconnects after an error. */
    private static void client(int port, byte[] payload, long pause) {
        byte[] head = ("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Length: " + payload.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setTcpNoDelay(true);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                while (true) {
                    out.write(head);
                    out.write(payload);
                    out.flush();
                    long length = readHeaders(in);
                    while (length > 0) {
                        int n = in.read(buffer, 0, (int) Math.min(buffer.length, length));
                        if (n < 0) {
                            throw new IOException("server closed");
                        }
                        length -= n;
                    }
                    REQUESTS.incrementAndGet();
                    if (pause > 0) {
                        Thread.sleep(pause);
                    }
                }
            } catch (IOException e) {
                ERRORS.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Reads a response's status line and headers; returns its Content-Length. */
    private static long readHeaders(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        long length = -1;
        boolean first = true;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("server closed");
            }
            if (b == '\n') {
                String text = line.toString().trim();
                line.setLength(0);
                if (text.isEmpty()) {
                    if (length < 0) {
                        throw new IOException("no content-length");
                    }
                    return length;
                }
                if (first && !text.startsWith("HTTP/1.1 200")) {
                    throw new IOException("unexpected status: " + text);
                }
                first = false;
                int colon = text.indexOf(':');
                if (colon > 0 && text.substring(0, colon).equalsIgnoreCase("content-length")) {
                    length = Long.parseLong(text.substring(colon + 1).trim());
                }
            } else {
                line.append((char) b);
            }
        }
    }
}
