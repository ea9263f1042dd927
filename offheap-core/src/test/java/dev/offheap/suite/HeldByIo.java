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
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An I/O operation in progress on a view of offheap memory, held for as long as a test needs: a thread blocked
 * in a pipe's read into the buffer, or in a pipe's write from it. While it is blocked the JDK holds the view's
 * arena ("Session is acquired by 1 clients"), which is what a release or close racing a real channel meets.
 *
 * <p>A write is known to be in progress as soon as one byte of it arrives: the buffer is larger than the
 * pipe (64 KiB), so the writer stays inside its one write call until the test drains the pipe. A read is
 * known to be in progress once the reader's innermost frame is the native read, which the JDK enters only
 * after acquiring the buffer's arena.
 */
public final class HeldByIo implements AutoCloseable {
    /** Larger than a Linux pipe's default capacity (64 KiB), so that a write of it blocks. */
    public static final int MIN_WRITE_BYTES = 128 * 1024;

    private final Pipe pipe;
    private final Thread thread;
    private final AtomicReference<Throwable> failure;
    private final boolean reading;
    private boolean ended;

    private HeldByIo(Pipe pipe, Thread thread, AtomicReference<Throwable> failure, boolean reading) {
        this.pipe = pipe;
        this.thread = thread;
        this.failure = failure;
        this.reading = reading;
    }

    /**
     * Starts writing all of {@code buffer} (at least {@link #MIN_WRITE_BYTES} remaining) into a pipe nobody
     * reads yet, and returns once the write is in progress.
     */
    public static HeldByIo writing(ByteBuffer buffer) throws IOException {
        if (buffer.remaining() < MIN_WRITE_BYTES) {
            throw new IllegalArgumentException("a write of " + buffer.remaining() + " bytes may not block");
        }
        Pipe pipe = Pipe.open();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = Thread.ofPlatform().name("held-by-write").start(() -> {
            try (Pipe.SinkChannel sink = pipe.sink()) { // closed when done: the drain below sees the end
                while (buffer.hasRemaining()) {
                    sink.write(buffer);
                }
            } catch (IOException | RuntimeException e) {
                failure.set(e);
            }
        });
        if (pipe.source().read(ByteBuffer.allocate(1)) != 1) { // the writer is inside its write
            throw new IllegalStateException("the writer wrote nothing");
        }
        return new HeldByIo(pipe, writer, failure, false);
    }

    /** Starts reading from a pipe into {@code buffer}, and returns once the read is in progress. */
    public static HeldByIo reading(ByteBuffer buffer) throws IOException, InterruptedException {
        Pipe pipe = Pipe.open();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().name("held-by-read").start(() -> {
            try {
                pipe.source().read(buffer);
            } catch (IOException | RuntimeException e) {
                failure.set(e);
            }
        });
        Waits.Stopwatch waited = new Waits.Stopwatch();
        while (!inNativeRead(reader)) {
            if (waited.expired() || !reader.isAlive()) {
                throw new AssertionError("the reader never blocked in its read: " + failure.get());
            }
            Thread.sleep(1);
        }
        return new HeldByIo(pipe, reader, failure, true);
    }

    private static boolean inNativeRead(Thread reader) {
        StackTraceElement[] stack = reader.getStackTrace();
        return stack.length > 0 && stack[0].isNativeMethod() && stack[0].getMethodName().startsWith("read");
    }

    /**
     * Ends the operation: a read gets {@code data} (at most what its buffer has room for), a write is
     * drained to its end. Returns once the thread is done; throws what the operation threw.
     */
    public void end(byte[] data) throws IOException, InterruptedException {
        if (ended) {
            return;
        }
        ended = true;
        if (reading) {
            pipe.sink().write(ByteBuffer.wrap(data));
        } else {
            ByteBuffer sink = ByteBuffer.allocate(1 << 16);
            while (pipe.source().read(sink.clear()) >= 0) {
                // drain to the end: the writer closes its end once it wrote everything
            }
        }
        Waits.join(thread);
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("the held " + (reading ? "read" : "write") + " failed", t);
        }
    }

    /** Ends a read with one byte, or drains a write. */
    public void end() throws IOException, InterruptedException {
        end(new byte[] {1});
    }

    @Override
    public void close() throws IOException {
        try {
            end();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                pipe.sink().close();
            } finally {
                pipe.source().close();
            }
        }
        if (thread.isAlive()) {
            throw new UncheckedIOException(new IOException("the held operation did not end"));
        }
    }
}
