package dev.offheap.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;

/**
 * Cross-thread acquire/release without JMH: every allocator in one JVM, interleaved round by round, so that
 * all see the same machine conditions (on a noisy 2-vCPU machine {@link CrossThreadBenchmark}'s forks swing
 * by 10x, which makes ratios between forks meaningless; ratios within one round do not have that problem).
 *
 * <p>Per round, in an order shuffled with the round as seed, each allocator runs one pass: a producer thread
 * acquires N buffers (writing first long and last byte, {@link Allocator#acquire(int)}) and hands them over
 * an {@link SpscRing} of 1024 to a consumer thread that releases them. Both threads are new platform threads
 * per pass; the pass is timed from the start barrier to the consumer's last release. The first
 * {@value #WARMUP} rounds are not reported.
 *
 * <p>Caveat: unlike a JMH fork, this JVM loads three {@link Allocator} subclasses, so the acquire and release
 * call sites are not monomorphic; the same for every allocator.
 *
 * <p>Usage: {@code PlainCrossThread <1024|65536|random> [rounds=15] [leasesPerRound=200000]}.
 */
public final class PlainCrossThread {
    static final String[] NAMES = {"offheap", "netty-pooled", "netty-adaptive", "handoff"};
    static final int WARMUP = 5;
    static final int RING_CAPACITY = 1024;
    private static final int SPINS = 100;

    private PlainCrossThread() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: PlainCrossThread <1024|65536|random> [rounds=15] [leasesPerRound=200000]");
            System.exit(2);
        }
        String size = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        int leases = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        if (rounds <= WARMUP) {
            throw new IllegalArgumentException("rounds must be > " + WARMUP + ": " + rounds);
        }
        boolean random = size.equals("random");
        int[] sizes = random ? RandomSizes.table() : null;
        int max = random ? RandomSizes.MAX : Integer.parseInt(size);

        Allocator[] allocs = new Allocator[NAMES.length];
        for (int a = 0; a < NAMES.length; a++) {
            allocs[a] = Allocator.create(NAMES[a], max);
        }
        Allocator.printNettyPath(NAMES[1], allocs[1]);

        int reported = rounds - WARMUP;
        double[][] ns = new double[NAMES.length][reported];
        for (int r = 0; r < rounds; r++) {
            List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
            Collections.shuffle(order, new Random(r));
            StringBuilder line = new StringBuilder(r < WARMUP ? "warmup " : "round  ").append(r).append(':');
            for (int a : order) {
                double t = pass(allocs[a], sizes, leases);
                line.append(String.format(" %s=%.1f", NAMES[a], t));
                if (r >= WARMUP) {
                    ns[a][r - WARMUP] = t;
                }
            }
            System.out.println(line);
        }
        for (Allocator a : allocs) {
            a.close();
        }

        System.out.printf("# size=%s rounds=%d (warmup %d) leases/round=%d, ns per lease%n", size, rounds, WARMUP,
                leases);
        for (int a = 0; a < NAMES.length; a++) {
            System.out.printf("%-15s median %8.1f  min %8.1f%n", NAMES[a], median(ns[a]), min(ns[a]));
        }
        double[] pooled = new double[reported];
        double[] adaptive = new double[reported];
        double[] overHandoff = new double[reported];
        for (int i = 0; i < reported; i++) {
            pooled[i] = ns[1][i] / ns[0][i];
            adaptive[i] = ns[2][i] / ns[0][i];
            overHandoff[i] = ns[0][i] - ns[3][i];
        }
        printRatio("netty-pooled/offheap", pooled);
        printRatio("netty-adaptive/offheap", adaptive);
        printRatio("offheap-handoff (ns)", overHandoff);
        System.out.printf("SUMMARY size=%s pooled/offheap=%.2f [%.2f..%.2f] adaptive/offheap=%.2f [%.2f..%.2f]"
                        + " offheap=%.1f pooled=%.1f adaptive=%.1f handoff=%.1f offheap-handoff=%.1f%n",
                size, median(pooled), min(pooled), max(pooled), median(adaptive), min(adaptive), max(adaptive),
                median(ns[0]), median(ns[1]), median(ns[2]), median(ns[3]), median(overHandoff));
    }

    /** One producer/consumer pass of {@code leases} buffers; returns ns per lease. */
    static double pass(Allocator alloc, int[] sizes, int leases) throws Exception {
        SpscRing ring = new SpscRing(RING_CAPACITY);
        CyclicBarrier start = new CyclicBarrier(3);
        long[] end = new long[1];
        Throwable[] failure = new Throwable[2];
        Thread producer = Thread.ofPlatform().name("producer").unstarted(() -> {
            try {
                start.await();
                for (int i = 0; i < leases; i++) {
                    Object h = sizes == null ? alloc.acquire() : alloc.acquire(sizes[i & (RandomSizes.COUNT - 1)]);
                    int waits = 0;
                    while (!ring.offer(h)) {
                        waitBriefly(++waits);
                    }
                }
            } catch (Throwable t) {
                failure[0] = t;
            }
        });
        Thread consumer = Thread.ofPlatform().name("consumer").unstarted(() -> {
            try {
                start.await();
                for (int i = 0; i < leases; i++) {
                    Object h;
                    int waits = 0;
                    while ((h = ring.poll()) == null) {
                        waitBriefly(++waits);
                    }
                    alloc.release(h);
                }
                end[0] = System.nanoTime();
            } catch (Throwable t) {
                failure[1] = t;
            }
        });
        producer.start();
        consumer.start();
        start.await();
        long begin = System.nanoTime();
        producer.join();
        consumer.join();
        for (Throwable t : failure) {
            if (t != null) {
                throw new IllegalStateException("pass failed", t);
            }
        }
        return (double) (end[0] - begin) / leases;
    }

    private static void waitBriefly(int waits) {
        if (waits < SPINS) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    private static void printRatio(String name, double[] v) {
        System.out.printf("%-24s median %7.2f  range [%.2f .. %.2f]%n", name, median(v), min(v), max(v));
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(Double.NaN);
    }
}
