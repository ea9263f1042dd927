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

package dev.offheap.lab.experiment.gc;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child JVM main: seed 000's echo loop without the network. Every message is decoded into a new heap
 * array (as an application would) and encoded into a buffer that is {@code direct} (allocateDirect per
 * message), {@code heap} (allocate per message) or {@code pool} (a lease from offheap's pool).
 * Prints {@code key=value} lines: messages, seconds, peakDirectBytes, peakPoolBytes, peakRssKib.
 *
 * <p>Arguments: mode, milliseconds to run, message size in bytes.
 */
public final class MessageLoop {
    private MessageLoop() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        long millis = Long.parseLong(args[1]);
        int size = Integer.parseInt(args[2]);
        BufferPool pool = mode.equals("pool") ? BufferPool.builder().name("lab-gc").jmx(false).build() : null;
        BufferPoolMXBean direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                .filter(b -> b.getName().equals("direct")).findFirst().orElseThrow();
        AtomicLong peakDirect = new AtomicLong();
        AtomicLong peakPool = new AtomicLong();
        Thread sampler = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peakDirect.accumulateAndGet(direct.getMemoryUsed(), Math::max);
                if (pool != null) {
                    peakPool.accumulateAndGet(pool.stats().bytesFromOs(), Math::max);
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        long start = System.nanoTime();
        long end = start + millis * 1_000_000;
        long messages = 0;
        long checksum = 0;
        while ((messages & 255) != 0 || System.nanoTime() < end) {
            byte[] message = new byte[size];
            message[(int) (messages % size)] = (byte) messages;
            checksum += switch (mode) {
                case "direct" -> echo(ByteBuffer.allocateDirect(size), message);
                case "heap" -> echo(ByteBuffer.allocate(size), message);
                default -> echo(pool, message);
            };
            messages++;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        sampler.interrupt();
        sampler.join();
        System.out.println("messages=" + messages);
        System.out.println("seconds=" + seconds);
        System.out.println("checksum=" + checksum);
        System.out.println("peakDirectBytes=" + peakDirect.get());
        System.out.println("peakPoolBytes=" + peakPool.get());
        System.out.println("peakRssKib=" + ProcStatus.peakRssKib());
        if (pool != null) {
            pool.close();
        }
    }

    private static int echo(BufferPool pool, byte[] message) {
        try (BufferLease lease = pool.acquire(message.length)) {
            return echo(lease.byteBuffer(), message);
        }
    }

    private static int echo(ByteBuffer buffer, byte[] message) {
        buffer.clear();
        buffer.put(message);
        buffer.flip();
        return buffer.get(buffer.limit() - 1) + buffer.get(0);
    }
}
