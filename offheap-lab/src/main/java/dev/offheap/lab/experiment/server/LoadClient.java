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
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A closed-loop HTTP/1.1 load generator on one thread: {@code connections} keep-alive connections, each
 * sending the next GET as soon as the previous response is complete, for a fixed time.
 */
public final class LoadClient {
    /** Requests completed and each one's latency in nanoseconds. */
    public record Load(long requests, long[] latenciesNanos, double seconds, long errors) {
        public double perSecond() {
            return requests / seconds;
        }
    }

    private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private static final class Connection {
        final ByteBuffer in = ByteBuffer.allocate(1 << 17);
        final ByteBuffer out = ByteBuffer.wrap(REQUEST);
        long sentAt;
        int expected = -1;
    }

    private LoadClient() {}

    public static Load run(InetSocketAddress address, int connections, long millis) throws IOException {
        long[] latencies = new long[1 << 16];
        long requests = 0;
        long errors = 0;
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connections; i++) {
                SocketChannel channel = SocketChannel.open(address);
                channel.configureBlocking(false);
                Connection c = new Connection();
                c.sentAt = System.nanoTime();
                channel.write(c.out);
                channel.register(selector, SelectionKey.OP_READ, c);
            }
            long start = System.nanoTime();
            long end = start + millis * 1_000_000;
            while (System.nanoTime() < end) {
                selector.select(Math.max(1, (end - System.nanoTime()) / 1_000_000));
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel channel = (SocketChannel) key.channel();
                    Connection c = (Connection) key.attachment();
                    try {
                        if (channel.read(c.in) < 0) {
                            throw new IOException("server closed the connection");
                        }
                    } catch (IOException e) {
                        errors++;
                        key.cancel();
                        channel.close();
                        continue;
                    }
                    if (c.expected < 0) {
                        c.expected = responseLength(c.in);
                    }
                    if (c.expected > 0 && c.in.position() >= c.expected) {
                        long now = System.nanoTime();
                        if (requests == latencies.length) {
                            latencies = Arrays.copyOf(latencies, latencies.length * 2);
                        }
                        latencies[(int) requests++] = now - c.sentAt;
                        c.in.clear();
                        c.expected = -1;
                        c.out.rewind();
                        c.sentAt = now;
                        channel.write(c.out);
                    }
                }
                selector.selectedKeys().clear();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
            return new Load(requests, Arrays.copyOf(latencies, (int) requests), seconds, errors);
        }
    }

    /** Header and body length once the headers are in, else -1. */
    private static int responseLength(ByteBuffer in) {
        String text = new String(in.array(), 0, in.position(), StandardCharsets.US_ASCII);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            return -1;
        }
        int at = text.toLowerCase(java.util.Locale.ROOT).indexOf("content-length:");
        if (at < 0 || at > end) {
            return -1;
        }
        int eol = text.indexOf("\r\n", at);
        return end + 4 + Integer.parseInt(text.substring(at + "content-length:".length(), eol).trim());
    }
}
