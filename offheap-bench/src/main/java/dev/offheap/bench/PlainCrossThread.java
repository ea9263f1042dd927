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

package dev.offheap.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;

/**
 * A plain program, no JMH: a buffer acquired and written on one thread, handed over a single-producer
 * single-consumer ring of 1024, released on another, for offheap, Netty pooled, Netty adaptive and the
 * {@code handoff} floor (no allocator) taking turns in one JVM, in a new order every round, so that
 * whatever the machine does to two threads (on two vCPUs or taking turns on one) it does to all of them
 * within a round. Reports each allocator's median and minimum ns per buffer over the measured rounds, and
 * the median and range of the ratios taken within each round.
 *
 * <p>The producer and the consumer are two long-lived threads that walk the whole schedule in step, as a
 * server's event loop and worker do: a new pair of threads per pass would give every pass cold thread caches
 * (offheap's and Netty's alike are per thread). The four allocators share the call sites, so none of them is
 * inlined as in a JMH fork: the same for all.
 *
 * <p>Run: {@code java --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow
 * -Dio.netty.leakDetection.level=disabled -Dio.netty.allocator.useCacheForAllThreads=true -Xms1g -Xmx1g
 * -cp offheap-bench/target/benchmarks.jar dev.offheap.bench.PlainCrossThread 1024|65536|random [rounds]
 * [leases]}, or {@code offheap-bench/scripts/plain-crossthread.sh} for 5 launches of each size.
 */
public final class PlainCrossThread {
    private static final String[] ALLOCATORS = {"offheap", "netty-pooled", "netty-adaptive", "handoff"};
    private static final int WARM_UP_ROUNDS = 5;
    private static final int SPINS = 100;

    private PlainCrossThread() {}

    public static void main(String[] args) throws Exception {
        String size = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int leases = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        boolean random = size.equals("random");
        int[] sizes = random ? RandomSizes.table() : null;
        int fixed = random ? RandomSizes.MAX : Integer.parseInt(size);
        // The whole schedule up front, so two long-lived threads (as a server's) can walk it in step.
        List<String> schedule = new ArrayList<>();
        for (int round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
            List<String> order = new ArrayList<>(Arrays.asList(ALLOCATORS));
            Collections.shuffle(order, new Random(round));
            schedule.addAll(order);
        }
        List<Allocator> allocators = new ArrayList<>();
        for (String name : ALLOCATORS) {
            allocators.add(Allocator.create(name, fixed));
        }
        double[] perPass = run(schedule, allocators, sizes, fixed, leases);
        double[][] ns = new double[ALLOCATORS.length][rounds];
        for (int pass = WARM_UP_ROUNDS * ALLOCATORS.length; pass < schedule.size(); pass++) {
            int a = Arrays.asList(ALLOCATORS).indexOf(schedule.get(pass));
            ns[a][pass / ALLOCATORS.length - WARM_UP_ROUNDS] = perPass[pass];
        }
        allocators.forEach(Allocator::close);
        StringBuilder line = new StringBuilder("SUMMARY size=" + size + ":");
        for (int a = 0; a < ALLOCATORS.length; a++) {
            line.append(String.format(Locale.ROOT, " %s %.0f (min %.0f)", ALLOCATORS[a], median(ns[a]), min(ns[a])));
        }
        line.append(ratio(" pooled/offheap", ns[1], ns[0]));
        line.append(ratio(" adaptive/offheap", ns[2], ns[0]));
        System.out.println(line);
    }

    /**
     * Every pass of the schedule on one producer and one consumer thread, in step (a barrier before each
     * pass); returns ns per buffer of each pass, timed by the consumer from the barrier to its last release.
     */
    private static double[] run(List<String> schedule, List<Allocator> allocators, int[] sizes, int fixed,
            int leases) throws Exception {
        double[] perPass = new double[schedule.size()];
        SpscRing ring = new SpscRing(1024);
        CyclicBarrier start = new CyclicBarrier(2);
        Thread producer = Thread.ofPlatform().name("producer").start(() -> {
            for (String name : schedule) {
                Allocator alloc = allocators.get(Arrays.asList(ALLOCATORS).indexOf(name));
                await(start);
                for (int i = 0; i < leases; i++) {
                    Object handle = alloc.acquire(sizes == null ? fixed : sizes[i & (RandomSizes.COUNT - 1)]);
                    for (int waits = 0; !ring.offer(handle); ) {
                        backOff(++waits);
                    }
                }
            }
        });
        Thread consumer = Thread.ofPlatform().name("consumer").start(() -> {
            for (int pass = 0; pass < schedule.size(); pass++) {
                Allocator alloc = allocators.get(Arrays.asList(ALLOCATORS).indexOf(schedule.get(pass)));
                await(start);
                long t0 = System.nanoTime();
                for (int i = 0; i < leases; i++) {
                    Object handle;
                    for (int waits = 0; (handle = ring.poll()) == null; ) {
                        backOff(++waits);
                    }
                    alloc.release(handle);
                }
                perPass[pass] = (System.nanoTime() - t0) / (double) leases;
            }
        });
        producer.join();
        consumer.join();
        return perPass;
    }

    private static void backOff(int waits) {
        if (waits < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String ratio(String label, double[] numerators, double[] denominators) {
        double[] r = new double[numerators.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = numerators[i] / denominators[i];
        }
        return String.format(Locale.ROOT, "%s %.2fx [%.2f-%.2f]", label, median(r), min(r), max(r));
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
