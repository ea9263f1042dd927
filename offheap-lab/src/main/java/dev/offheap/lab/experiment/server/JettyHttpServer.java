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

import dev.offheap.buffer.BufferPool;
import dev.offheap.jetty.OffheapByteBufferPool;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * A Jetty 12.1 server (core {@link Handler.Abstract}, no servlets) answering every request with a body of
 * {@code --body} bytes written into a direct buffer acquired from the server's {@link ByteBufferPool} per
 * request and released in the write's callback, so that the pool is on the path. The pool is {@code --pool}:
 * {@code offheap} ({@link OffheapByteBufferPool} on a pool of this server) or {@code array} (Jetty's default
 * {@link ArrayByteBufferPool}), passed through {@code new Server(threadPool, scheduler, bufferPool)}; both
 * trim through {@link ByteBufferPool#clear()}. The direct memory each holds (the admin console's readings) is
 * the offheap pool's {@code bytesFromOs}, or what {@code ArrayByteBufferPool.getDirectMemory()} retains.
 * {@code GET /idle} answers what the admin console's {@code idle} does.
 *
 * <p>Usage: {@code JettyHttpServer --pool offheap|array [--body bytes] [--port n]}.
 */
public final class JettyHttpServer {
    /** The pool names, in the order of the tables. */
    static final List<String> POOLS = List.of("offheap", "offheap-recycling", "array");

    private JettyHttpServer() {}

    /** Runs the server until {@code stop} or the end of standard input. */
    public static void main(String[] args) throws Exception {
        ServerArgs options = ServerArgs.parse(args);
        String name = options.text("pool");
        BufferPool offheap = name.startsWith("offheap") ? BufferPool.builder().name("jetty").build() : null;
        ByteBufferPool pool = switch (name) {
            case "offheap" -> new OffheapByteBufferPool(offheap);
            case "offheap-recycling" -> OffheapByteBufferPool.builder(offheap).recycleBuffers(true).build();
            case "array" -> new ArrayByteBufferPool();
            default -> throw new IllegalArgumentException("unknown pool " + name + ": expected one of " + POOLS);
        };
        LongSupplier held = offheap != null ? offheap.metrics()::getBytesFromOs
                : ((ArrayByteBufferPool) pool)::getDirectMemory;
        Server server = new Server(new QueuedThreadPool(), new ScheduledExecutorScheduler(), pool);
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(options.number("port", 0));
        server.addConnector(connector);
        server.setHandler(new Responder(Body.of(options.number("body", 16 * 1024)), pool::clear));
        try {
            server.start();
            AdminConsole.announce(connector.getLocalPort());
            AdminConsole.serve(pool::clear, held);
        } finally {
            server.stop();
            if (offheap != null) {
                offheap.close();
            }
        }
    }

    /** Answers every request with the body, from a pooled direct buffer. */
    private static final class Responder extends Handler.Abstract {
        private final byte[] body;
        private final Runnable trim;

        Responder(byte[] body, Runnable trim) {
            this.body = body;
            this.trim = trim;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (request.getHttpURI().getPath().equals("/idle")) {
                Content.Sink.write(response, true, "rss_kib=" + AdminConsole.idle(trim) + "\n", callback);
                return true;
            }
            RetainableByteBuffer buffer = request.getComponents().getByteBufferPool().acquire(body.length, true);
            ByteBuffer bytes = buffer.getByteBuffer();
            int position = BufferUtil.flipToFill(bytes);
            bytes.put(body);
            BufferUtil.flipToFlush(bytes, position);
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.write(true, bytes, Callback.from(() -> {
                buffer.release();
                callback.succeeded();
            }, failure -> {
                buffer.release();
                callback.failed(failure);
            }));
            return true;
        }
    }
}
