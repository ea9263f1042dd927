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

package dev.offheap.store;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One whole-array operation split into pieces, run by the current {@link Workers}: each worker, the calling
 * thread among them, takes the next piece in index order until none is left, so the pieces of a spilled array
 * are read nearly in file order, and a slow or busy worker holds no one up. The pieces depend on the array's
 * length alone (never on the workers), so an operation that combines their results in index order gives the
 * same result on any workers.
 */
final class Pieces {
    /** Bytes per piece: large enough that taking one costs nothing, small enough to share out on many cores. */
    static final long PIECE_BYTES = 256 << 10;
    /** At most this many pieces: their results are kept in Java arrays. */
    private static final long MAX_PIECES = 1L << 22;

    /** The work of one piece. */
    @FunctionalInterface
    interface Task {
        void run(int piece);
    }

    private Pieces() {
    }

    /** The elements per piece of an array of {@code length} elements of {@code 1 << shift} bytes. */
    static long elementsPerPiece(long length, int shift) {
        long bytes = PIECE_BYTES;
        while ((length << shift) / bytes >= MAX_PIECES) {
            bytes <<= 1;
        }
        return bytes >>> shift;
    }

    /** The number of pieces of {@code length} elements, {@code perPiece} a piece; 0 for an empty array. */
    static int count(long length, long perPiece) {
        return (int) ((length + perPiece - 1) / perPiece);
    }

    /**
     * Runs {@code task} once for every piece in {@code [0, pieces)} on the current workers and returns once every
     * piece taken has ended. After a failure no piece starts any more; the first failure is thrown.
     */
    static void run(int pieces, Task task) {
        if (pieces <= 1) {
            if (pieces == 1) {
                task.run(0);
            }
            return;
        }
        new Run(pieces, task).start(Workers.current());
    }

    /** The shared state of one operation's workers. */
    private static final class Run implements Runnable {
        private final int pieces;
        private final Task task;
        private final Thread caller = Thread.currentThread();
        private final AtomicLong next = new AtomicLong();
        private final AtomicLong ended = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        Run(int pieces, Task task) {
            this.pieces = pieces;
            this.task = task;
        }

        void start(Workers workers) {
            int helpers = Math.min(workers.parallelism(), pieces) - 1;
            for (int i = 0; i < helpers; i++) {
                try {
                    workers.executor().execute(this);
                } catch (RejectedExecutionException refused) {
                    break; // the caller takes their share
                }
            }
            run();
            boolean interrupted = false;
            while (ended.get() < pieces) { // a helper still runs a piece: the arrays must outlive it
                LockSupport.park(this);
                interrupted |= Thread.interrupted();
            }
            if (interrupted) {
                caller.interrupt();
            }
            Throwable thrown = failure.get();
            if (thrown instanceof RuntimeException e) {
                throw e;
            }
            if (thrown instanceof Error e) {
                throw e;
            }
        }

        /** Takes pieces until none is left; a helper task and the caller both run this. */
        @Override
        public void run() {
            for (long piece = next.getAndIncrement(); piece < pieces; piece = next.getAndIncrement()) {
                try {
                    if (failure.get() == null) {
                        task.run((int) piece);
                        Thread.holdsLock(this); // a fault in a mapped file's memory surfaces here, not past the catch
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    if (ended.incrementAndGet() == pieces && Thread.currentThread() != caller) {
                        LockSupport.unpark(caller);
                    }
                }
            }
        }
    }
}
