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

package dev.offheap.cli.inspect;

import java.io.IOException;
import java.util.List;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * The JDK's buffer pools ({@code BufferPoolMXBean}, read over JMX: no diagnostic command tells them): direct
 * buffers (malloc'd; memory from {@code Arena.ofAuto()} counts here too, other FFM arenas do not) and mapped
 * buffers ({@code FileChannel.map}, mapped segments).
 *
 * @param direct the {@code direct} pool
 * @param mapped the {@code mapped} pool
 * @param churn what polling the direct pool saw during a short window
 */
record BufferPools(Usage direct, Usage mapped, Churn churn) {

    /**
     * One pool now.
     *
     * @param count buffers
     * @param capacity their total capacity
     * @param memoryUsed memory the JDK reserved for them (more than capacity with page alignment)
     */
    record Usage(long count, long capacity, long memoryUsed) {
        static final Usage NONE = new Usage(0, 0, 0);
    }

    /**
     * Direct buffers created and freed per second while the pool was polled: lower bounds, since polls only see net
     * changes between two looks.
     *
     * @param windowMillis how long the polls lasted, 0 when there was a single look (no rates)
     * @param createdPerSecond buffers that appeared, per second
     * @param freedPerSecond buffers that disappeared, per second
     * @param bytesCreatedPerSecond capacity that appeared, bytes per second
     * @param bytesFreedPerSecond capacity that disappeared, bytes per second
     */
    record Churn(long windowMillis, double createdPerSecond, double freedPerSecond, double bytesCreatedPerSecond,
            double bytesFreedPerSecond) {
        static final Churn NONE = new Churn(0, 0, 0, 0, 0);
    }

    private static final String[] ATTRIBUTES = {"Count", "TotalCapacity", "MemoryUsed"};

    static BufferPools read(MBeanServerConnection server, int polls, long pollMillis) throws IOException {
        try {
            ObjectName direct = new ObjectName("java.nio:type=BufferPool,name=direct");
            ObjectName mapped = new ObjectName("java.nio:type=BufferPool,name=mapped");
            Usage first = usage(server, direct);
            Usage last = first;
            long created = 0;
            long freed = 0;
            long bytesCreated = 0;
            long bytesFreed = 0;
            long start = System.nanoTime();
            for (int i = 1; i < polls; i++) {
                Thread.sleep(pollMillis);
                Usage now = usage(server, direct);
                created += Math.max(0, now.count() - last.count());
                freed += Math.max(0, last.count() - now.count());
                bytesCreated += Math.max(0, now.capacity() - last.capacity());
                bytesFreed += Math.max(0, last.capacity() - now.capacity());
                last = now;
            }
            long nanos = System.nanoTime() - start;
            double seconds = nanos / 1e9;
            Churn churn = polls > 1 && nanos > 0 ? new Churn(nanos / 1_000_000, created / seconds, freed / seconds,
                    bytesCreated / seconds, bytesFreed / seconds) : Churn.NONE;
            return new BufferPools(last, usage(server, mapped), churn);
        } catch (JMException e) {
            throw new IOException("cannot read the target's buffer pools: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static Usage usage(MBeanServerConnection server, ObjectName pool) throws IOException, JMException {
        if (!server.isRegistered(pool)) {
            return Usage.NONE;
        }
        AttributeList values = server.getAttributes(pool, ATTRIBUTES);
        long[] numbers = new long[ATTRIBUTES.length];
        List<Attribute> list = values.asList();
        for (Attribute a : list) {
            numbers[List.of(ATTRIBUTES).indexOf(a.getName())] = ((Number) a.getValue()).longValue();
        }
        return new Usage(numbers[0], numbers[1], numbers[2]);
    }
}
