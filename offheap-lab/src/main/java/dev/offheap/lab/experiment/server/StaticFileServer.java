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
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Seed 001's experiment: a one-thread NIO HTTP/1.1 server answering every request with one static file,
 * keep-alive. The request buffer (8 KiB, Grizzly's) is taken per connection and the response buffer per
 * request from the buffer strategy under test; the file is read into the response buffer each time.
 */
public final class StaticFileServer implements AutoCloseable {
    static final int REQUEST_BUFFER = 8192;

    private final ServerSocketChannel server;
    private final BufferStrategy strategy;
    private final FileChannel file;
    private final byte[] header;
    private final Selector selector;
    private final Thread thread;
    private volatile boolean running = true;

    private static final class Connection {
        final StrategyBuffer request;
        StrategyBuffer response;

        Connection(StrategyBuffer request) {
            this.request = request;
        }
    }

    public StaticFileServer(ServerSocketChannel server, BufferStrategy strategy, Path file) throws IOException {
        this.server = server;
        this.strategy = strategy;
        this.file = FileChannel.open(file, StandardOpenOption.READ);
        this.header = ("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "
                + this.file.size() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.selector = Selector.open();
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.thread = Thread.ofPlatform().name("lab-http-" + strategy.name()).daemon().start(this::serve);
    }

    private void serve() {
        try {
            while (running) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    try {
                        handle(key);
                    } catch (IOException e) {
                        drop(key);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException e) {
            // the run is over either way
        } finally {
            for (SelectionKey key : selector.keys()) {
                drop(key);
            }
            try {
                selector.close();
            } catch (IOException e) {
                // nothing left to give back
            }
        }
    }

    private void handle(SelectionKey key) throws IOException {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            SocketChannel channel = server.accept();
            if (channel != null) {
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, new Connection(strategy.acquire(REQUEST_BUFFER)));
            }
            return;
        }
        SocketChannel channel = (SocketChannel) key.channel();
        Connection c = (Connection) key.attachment();
        if (key.isReadable()) {
            ByteBuffer in = c.request.byteBuffer();
            if (channel.read(in) < 0) {
                drop(key);
                return;
            }
            if (endOfHeaders(in)) {
                in.clear();
                c.response = respond();
                key.interestOps(SelectionKey.OP_WRITE);
            }
        }
        if (key.isValid() && key.isWritable() && c.response != null) {
            ByteBuffer out = c.response.byteBuffer();
            channel.write(out);
            if (!out.hasRemaining()) {
                c.response.close();
                c.response = null;
                key.interestOps(SelectionKey.OP_READ);
            }
        }
    }

    private StrategyBuffer respond() throws IOException {
        StrategyBuffer response = strategy.acquire(header.length + (int) file.size());
        ByteBuffer out = response.byteBuffer();
        out.put(header);
        long position = 0;
        while (out.hasRemaining()) {
            int n = file.read(out, position);
            if (n < 0) {
                throw new IOException("static file shrank");
            }
            position += n;
        }
        out.flip();
        return response;
    }

    private static boolean endOfHeaders(ByteBuffer in) {
        for (int i = 3; i < in.position(); i++) {
            if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                return true;
            }
        }
        return false;
    }

    private static void drop(SelectionKey key) {
        key.cancel();
        if (key.attach(null) instanceof Connection c) {
            c.request.close();
            if (c.response != null) {
                c.response.close();
            }
        }
        try {
            key.channel().close();
        } catch (IOException e) {
            // already gone
        }
    }

    public java.net.SocketAddress address() throws IOException {
        return server.getLocalAddress();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        running = false;
        selector.wakeup();
        thread.join(5000);
        server.close();
        file.close();
    }
}
