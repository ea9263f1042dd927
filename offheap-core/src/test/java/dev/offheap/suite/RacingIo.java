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

package dev.offheap.suite;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.Pipe;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One I/O operation on a view of offheap memory, on a thread of its own, for stress tests that race a
 * release, trim or close against it: a file read or write that is simply in flight, or a socket or pipe read
 * or write that stays blocked until {@link #end()} unblocks it. A read fills the buffer with
 * {@link #PATTERN}; the test then checks that those bytes landed nowhere but in the buffer's own memory.
 *
 * <p>The operation ends either having done its work, or refused at its start with the JDK's
 * {@link IllegalStateException} because the views had already ended (a close or release that came first).
 * Anything else is a failure, rethrown by {@link #end()}.
 */
public final class RacingIo {
    /** What every read writes into its buffer. */
    public static final byte PATTERN = (byte) 0xEE;

    /** The kinds of operation. Blocked kinds need a buffer of at least {@link HeldByIo#MIN_WRITE_BYTES} to write. */
    public enum Kind {
        FILE_READ(false, true), FILE_WRITE(false, false), SOCKET_READ(true, true), SOCKET_WRITE(true, false),
        PIPE_READ(true, true), PIPE_WRITE(true, false);

        final boolean blocks;
        final boolean reads;

        Kind(boolean blocks, boolean reads) {
            this.blocks = blocks;
            this.reads = reads;
        }

        public boolean blocks() {
            return blocks;
        }

        public boolean reads() {
            return reads;
        }
    }

    /** How the operation ended. */
    public enum Outcome { DONE, REFUSED_ENDED_VIEWS }

    private final Kind kind;
    private final Thread thread;
    private final AtomicReference<Outcome> outcome = new AtomicReference<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AutoCloseable[] resources;
    private final Runnable unblock;

    private RacingIo(Kind kind, ByteBuffer buffer, Path dir, boolean waitUntilBlocked) throws Exception {
        this.kind = kind;
        ByteBuffer target = buffer.duplicate().clear();
        int length = target.remaining();
        switch (kind) {
            case FILE_READ -> {
                Path file = Files.createTempFile(dir, "racing-read", ".bin");
                byte[] data = new byte[length];
                Arrays.fill(data, PATTERN);
                Files.write(file, data);
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.DELETE_ON_CLOSE);
                resources = new AutoCloseable[] {channel};
                unblock = () -> { };
                thread = start(() -> {
                    while (target.hasRemaining() && channel.read(target) >= 0) {
                        // to the end
                    }
                });
            }
            case FILE_WRITE -> {
                Path file = Files.createTempFile(dir, "racing-write", ".bin");
                FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
                        StandardOpenOption.DELETE_ON_CLOSE);
                resources = new AutoCloseable[] {channel};
                unblock = () -> { };
                thread = start(() -> {
                    while (target.hasRemaining()) {
                        channel.write(target);
                    }
                });
            }
            case SOCKET_READ, SOCKET_WRITE -> {
                SocketChannel[] pair = socketPair();
                SocketChannel mine = pair[0];
                SocketChannel peer = pair[1];
                resources = new AutoCloseable[] {mine, peer};
                if (kind == Kind.SOCKET_READ) {
                    unblock = () -> fill(peer, length);
                    thread = start(() -> {
                        while (target.hasRemaining() && mine.read(target) >= 0) {
                            // until the buffer is full
                        }
                    });
                } else {
                    unblock = () -> drain(peer, length);
                    thread = start(() -> {
                        while (target.hasRemaining()) {
                            mine.write(target);
                        }
                    });
                }
            }
            default -> {
                Pipe pipe = Pipe.open();
                resources = new AutoCloseable[] {pipe.sink(), pipe.source()};
                if (kind == Kind.PIPE_READ) {
                    unblock = () -> fill(pipe.sink(), length);
                    thread = start(() -> {
                        while (target.hasRemaining() && pipe.source().read(target) >= 0) {
                            // until the buffer is full
                        }
                    });
                } else {
                    unblock = () -> drain(pipe.source(), length);
                    thread = start(() -> {
                        while (target.hasRemaining()) {
                            pipe.sink().write(target);
                        }
                    });
                }
            }
        }
        if (waitUntilBlocked && kind.blocks) {
            awaitBlocked();
        }
    }

    /**
     * Starts {@code kind} on {@code buffer} (its whole capacity). A blocking kind returns once its thread is
     * inside the native call (a read) or has written its first bytes (a write), unless the views ended first.
     */
    public static RacingIo start(Kind kind, ByteBuffer buffer, Path dir) throws Exception {
        return new RacingIo(kind, buffer, dir, true);
    }

    public Kind kind() {
        return kind;
    }

    /** Unblocks the operation, waits for it, and says how it ended; rethrows anything but a refusal. */
    public Outcome end() throws Exception {
        // On a thread of its own: if the operation was refused, nobody reads what it writes or writes what it reads,
        // and closing the channels below is what ends it.
        Thread unblocker = Thread.ofPlatform().name("unblock-" + kind).start(() -> {
            try {
                unblock.run();
            } catch (RuntimeException closedMeanwhile) {
                // the channels were closed: the operation is over
            }
        });
        try {
            Waits.join(thread);
        } finally {
            for (AutoCloseable resource : resources) {
                resource.close();
            }
            Waits.join(unblocker);
        }
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError(kind + " failed", t);
        }
        return outcome.get();
    }

    private interface Io {
        void run() throws IOException;
    }

    private Thread start(Io io) {
        return Thread.ofPlatform().name("racing-" + kind).start(() -> {
            try {
                io.run();
                outcome.set(Outcome.DONE);
            } catch (IllegalStateException ended) { // the views ended before the channel could hold them
                outcome.set(Outcome.REFUSED_ENDED_VIEWS);
            } catch (IOException | RuntimeException | Error e) {
                failure.set(e);
            }
        });
    }

    private void awaitBlocked() throws InterruptedException {
        Waits.Stopwatch waited = new Waits.Stopwatch();
        while (thread.isAlive() && !inNativeCall()) {
            if (waited.expired()) {
                throw new AssertionError(kind + " never blocked:\n" + Waits.stack(thread));
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    private boolean inNativeCall() {
        StackTraceElement[] stack = thread.getStackTrace();
        return stack.length > 0 && stack[0].isNativeMethod() && (stack[0].getMethodName().startsWith("read")
                || stack[0].getMethodName().startsWith("write"));
    }

    private static SocketChannel[] socketPair() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            SocketChannel mine = SocketChannel.open();
            mine.setOption(StandardSocketOptions.SO_SNDBUF, 4096);
            mine.connect(server.getLocalAddress());
            SocketChannel peer = server.accept();
            return new SocketChannel[] {mine, peer};
        }
    }

    private static void fill(java.nio.channels.WritableByteChannel sink, int length) {
        try {
            byte[] data = new byte[length];
            Arrays.fill(data, PATTERN);
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                sink.write(b);
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void drain(java.nio.channels.ReadableByteChannel source, int length) {
        try {
            ByteBuffer b = ByteBuffer.allocate(1 << 16);
            long left = length;
            while (left > 0) {
                int n = source.read(b.clear());
                if (n < 0) {
                    return;
                }
                left -= n;
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
