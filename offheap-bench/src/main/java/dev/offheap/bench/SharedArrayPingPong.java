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

import dev.offheap.store.ElementType;
import dev.offheap.store.IntArray;
import dev.offheap.store.LongArray;
import dev.offheap.store.MappedArray;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A plain program, no JMH (JMH has no two-process benchmarks): two JVMs exchange values through one mapped
 * {@code .npy} file, through offheap's {@link MappedArray.Mode#SHARED} {@link LongArray} / {@link IntArray} or
 * through Agrona's {@link UnsafeBuffer} over a {@link MappedByteBuffer} of the same file, with the same memory
 * orders on both sides:
 *
 * <ul>
 * <li>{@code rtt}: round trip. The lead publishes {@code i} in one element ({@code setRelease} /
 *     {@code putLongRelease}), the peer spins on it ({@code getAcquire} / {@code getLongAcquire}) and answers in
 *     another element, 128 bytes away; ns per round trip.</li>
 * <li>{@code cas}: round trip through one element passed back and forth with {@code compareAndSet} (the lead
 *     moves it from 2i to 2i+1, the peer from 2i+1 to 2i+2), spinning on a volatile read; ns per round trip.</li>
 * <li>{@code stream}: one-way. The lead writes values into a ring of 256 plain elements and publishes each with
 *     a release of the head; the peer reads the head with acquire, the value plain (checking it), and releases
 *     its tail, which the lead reads with acquire when the ring is full; ns per value.</li>
 * <li>{@code add}: both processes {@code getAndAdd} one element at once; ns per addition, both processes'
 *     together, until both are done (the sum is checked). On two vCPUs that others use too, the two processes
 *     often take turns rather than contend: this measures throughput, not the contended cost.</li>
 * </ul>
 *
 * <p>The four implementations ({@code offheap-long}, {@code offheap-int}, {@code agrona-long},
 * {@code agrona-int}) take turns in one pair of JVMs, in a new order each round, so that whatever the machine
 * does during a round it does to all of them; each has its own copy of the loops ({@link PingPongLoops}, loaded
 * once per implementation), so every call site sees one receiver type, as in an application. The lead starts the
 * peer JVM itself (same java, class path and flags); both walk the same schedule in step (a control file, through
 * offheap, outside the loops), each pass in fresh, zeroed elements of its own. Warm-up rounds first, then
 * measured ones; prints each implementation's median and minimum per test, and per test the median and range
 * of offheap's time over Agrona's within each round. Spinning is
 * {@code Thread.onSpinWait()} with a {@code Thread.yield()} every 256 spins, the same for all, so that two
 * spinning JVMs on two busy cores still make progress. Both implementations check every index (Agrona's bounds
 * checks are on by default).
 *
 * <p>Run: {@code offheap-bench/scripts/shared-pingpong.sh} (three launches; Agrona 2.x needs
 * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}, offheap nothing but native access).
 */
public final class SharedArrayPingPong {
    /** Elements per pass: a region of its own, zero at its start. */
    private static final int REGION = 512;
    private static final String[] IMPLS = {"offheap-long", "agrona-long", "offheap-int", "agrona-int"};
    private static final String[] TESTS = {"rtt", "cas", "stream", "add"};

    private SharedArrayPingPong() {}

    /** The operations a pass uses, on element indices; values as longs (small: exact in an int). */
    public interface Cells {
        long get(int i);

        void set(int i, long v);

        long getAcquire(int i);

        void setRelease(int i, long v);

        long getVolatile(int i);

        boolean compareAndSet(int i, long expected, long v);

        long getAndAdd(int i, long delta);
    }

    public static final class OffheapLongs implements Cells {
        private final LongArray a;

        OffheapLongs(LongArray a) {
            this.a = a;
        }

        public long get(int i) { return a.get(i); }
        public void set(int i, long v) { a.set(i, v); }
        public long getAcquire(int i) { return a.getAcquire(i); }
        public void setRelease(int i, long v) { a.setRelease(i, v); }
        public long getVolatile(int i) { return a.getVolatile(i); }
        public boolean compareAndSet(int i, long e, long v) { return a.compareAndSet(i, e, v); }
        public long getAndAdd(int i, long d) { return a.getAndAdd(i, d); }
    }

    public static final class OffheapInts implements Cells {
        private final IntArray a;

        OffheapInts(IntArray a) {
            this.a = a;
        }

        public long get(int i) { return a.get(i); }
        public void set(int i, long v) { a.set(i, (int) v); }
        public long getAcquire(int i) { return a.getAcquire(i); }
        public void setRelease(int i, long v) { a.setRelease(i, (int) v); }
        public long getVolatile(int i) { return a.getVolatile(i); }
        public boolean compareAndSet(int i, long e, long v) { return a.compareAndSet(i, (int) e, (int) v); }
        public long getAndAdd(int i, long d) { return a.getAndAdd(i, (int) d); }
    }

    public static final class AgronaLongs implements Cells {
        private final UnsafeBuffer b;

        AgronaLongs(UnsafeBuffer b) {
            this.b = b;
        }

        public long get(int i) { return b.getLong(i << 3); }
        public void set(int i, long v) { b.putLong(i << 3, v); }
        public long getAcquire(int i) { return b.getLongAcquire(i << 3); }
        public void setRelease(int i, long v) { b.putLongRelease(i << 3, v); }
        public long getVolatile(int i) { return b.getLongVolatile(i << 3); }
        public boolean compareAndSet(int i, long e, long v) { return b.compareAndSetLong(i << 3, e, v); }
        public long getAndAdd(int i, long d) { return b.getAndAddLong(i << 3, d); }
    }

    public static final class AgronaInts implements Cells {
        private final UnsafeBuffer b;

        AgronaInts(UnsafeBuffer b) {
            this.b = b;
        }

        public long get(int i) { return b.getInt(i << 2); }
        public void set(int i, long v) { b.putInt(i << 2, (int) v); }
        public long getAcquire(int i) { return b.getIntAcquire(i << 2); }
        public void setRelease(int i, long v) { b.putIntRelease(i << 2, (int) v); }
        public long getVolatile(int i) { return b.getIntVolatile(i << 2); }
        public boolean compareAndSet(int i, long e, long v) { return b.compareAndSetInt(i << 2, (int) e, (int) v); }
        public long getAndAdd(int i, long d) { return b.getAndAddInt(i << 2, (int) d); }
    }

    /**
     * Args: lead|peer, directory, warm-up rounds, measured rounds, round trips per pass (values streamed and
     * additions per process: ten times as many).
     */
    public static void main(String[] args) throws Throwable {
        boolean lead = args[0].equals("lead");
        Path dir = Path.of(args[1]);
        int warmUp = Integer.parseInt(args[2]);
        int rounds = Integer.parseInt(args[3]);
        int ops = Integer.parseInt(args[4]);
        List<String> schedule = schedule(warmUp + rounds);
        int passes = schedule.size() * TESTS.length;
        Path longs = dir.resolve("longs.npy");
        Path ints = dir.resolve("ints.npy");
        Path control = dir.resolve("control.npy");
        Process peer = null;
        if (lead) {
            for (Path file : List.of(longs, ints, control)) {
                Files.deleteIfExists(file);
            }
            MappedArray.create(longs, ElementType.LONG, (long) passes * REGION).close();
            MappedArray.create(ints, ElementType.INT, (long) passes * REGION).close();
            MappedArray.create(control, ElementType.LONG, 64).close();
            peer = startPeer(args);
        }
        try (MappedArray controlFile = MappedArray.open(control, MappedArray.Mode.SHARED);
             LongArray steps = controlFile.longs();
             MappedArray longsFile = MappedArray.open(longs, MappedArray.Mode.SHARED);
             LongArray offheapLongs = longsFile.longs();
             MappedArray intsFile = MappedArray.open(ints, MappedArray.Mode.SHARED);
             IntArray offheapInts = intsFile.ints()) {
            Map<String, Cells> cells = Map.of(
                    "offheap-long", new OffheapLongs(offheapLongs),
                    "offheap-int", new OffheapInts(offheapInts),
                    "agrona-long", new AgronaLongs(agrona(longs)),
                    "agrona-int", new AgronaInts(agrona(ints)));
            Map<String, MethodHandle> leads = new HashMap<>();
            Map<String, MethodHandle> peers = new HashMap<>();
            for (String impl : IMPLS) {
                Class<?> loops = new OwnCopy(PingPongLoops.class).loadClass(PingPongLoops.class.getName());
                MethodType type = MethodType.methodType(void.class, String.class, Cells.class, int.class, int.class);
                leads.put(impl, MethodHandles.publicLookup().findStatic(loops, "runLead", type));
                peers.put(impl, MethodHandles.publicLookup().findStatic(loops, "runPeer", type));
            }
            Map<String, double[]> ns = new HashMap<>();
            int pass = 0;
            for (int entry = 0; entry < schedule.size(); entry++) {
                String impl = schedule.get(entry);
                int round = entry / IMPLS.length - warmUp;
                for (int test = 0; test < TESTS.length; test++, pass++) {
                    int base = pass * REGION;
                    Cells c = cells.get(impl);
                    int n = TESTS[test].equals("stream") || TESTS[test].equals("add") ? 10 * ops : ops;
                    if (lead) {
                        long start = System.nanoTime();
                        steps.setRelease(0, pass + 1);
                        leads.get(impl).invokeExact(TESTS[test], c, base, n);
                        await(steps, 1, pass + 1);
                        long elapsed = System.nanoTime() - start;
                        if (TESTS[test].equals("add") && c.getVolatile(base + PingPongLoops.COUNTER) != 2L * n) {
                            throw new AssertionError(impl + " lost additions: " + c.getVolatile(base + PingPongLoops.COUNTER));
                        }
                        if (round >= 0) {
                            ns.computeIfAbsent(impl + " " + TESTS[test], k -> new double[rounds])[round] =
                                    (double) elapsed / (TESTS[test].equals("add") ? 2L * n : n);
                        }
                    } else {
                        await(steps, 0, pass + 1);
                        peers.get(impl).invokeExact(TESTS[test], c, base, n);
                        steps.setRelease(1, pass + 1);
                    }
                }
            }
            if (lead) {
                report(ns, rounds);
            }
        }
        if (peer != null) {
            if (!peer.waitFor(60, TimeUnit.SECONDS) || peer.exitValue() != 0) {
                peer.destroyForcibly();
                throw new IllegalStateException("the peer failed (exit " + peer.exitValue() + ")");
            }
        }
    }

    /** Per round, every implementation once, in an order of the round's own (the same in both JVMs). */
    private static List<String> schedule(int rounds) {
        List<String> schedule = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(Arrays.asList(IMPLS));
            Collections.shuffle(order, new Random(round));
            schedule.addAll(order);
        }
        return schedule;
    }

    /**
     * Per implementation and test, the median and minimum ns over the measured rounds; per test, the median and
     * range of offheap's time over Agrona's taken within each round (the machine does the same to both then).
     */
    private static void report(Map<String, double[]> ns, int rounds) {
        for (String impl : IMPLS) {
            for (String test : TESTS) {
                double[] values = ns.get(impl + " " + test).clone();
                Arrays.sort(values);
                System.out.println(String.format(Locale.ROOT, "RESULT %-12s %-6s median %8.1f ns  min %8.1f ns", impl,
                        test, values[values.length / 2], values[0]));
            }
        }
        for (String kind : List.of("long", "int")) {
            for (String test : TESTS) {
                double[] offheap = ns.get("offheap-" + kind + " " + test);
                double[] agrona = ns.get("agrona-" + kind + " " + test);
                double[] ratios = new double[rounds];
                for (int r = 0; r < rounds; r++) {
                    ratios[r] = offheap[r] / agrona[r];
                }
                Arrays.sort(ratios);
                System.out.println(String.format(Locale.ROOT, "RATIO offheap/agrona %-4s %-6s median %.2f (%.2f-%.2f)",
                        kind, test, ratios[rounds / 2], ratios[0], ratios[rounds - 1]));
            }
        }
    }

    /** An UnsafeBuffer over a MappedByteBuffer of an offheap file's data (from byte 4096, as its header says). */
    private static UnsafeBuffer agrona(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, channel.size());
            int offset = 4096;
            return new UnsafeBuffer(mapped, offset, (int) (channel.size() - offset));
        }
    }

    private static Process startPeer(String[] args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SharedArrayPingPong.class.getName(),
                "peer"));
        command.addAll(List.of(args).subList(1, args.length));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static void await(LongArray steps, int index, long value) {
        int spins = 0;
        while (steps.getAcquire(index) < value) {
            spins = PingPongLoops.pause(spins);
        }
    }

    /** Defines its own copy of one class, from the class file its parent has; everything else comes from the parent. */
    private static final class OwnCopy extends ClassLoader {
        private final String name;

        OwnCopy(Class<?> copied) {
            super(copied.getClassLoader());
            this.name = copied.getName();
        }

        @Override
        protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
            if (!className.equals(name)) {
                return super.loadClass(className, resolve);
            }
            synchronized (getClassLoadingLock(className)) {
                Class<?> loaded = findLoadedClass(className);
                if (loaded != null) {
                    return loaded;
                }
                try (InputStream in = getParent().getResourceAsStream(className.replace('.', '/') + ".class")) {
                    byte[] bytes = in.readAllBytes();
                    return defineClass(className, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(className, e);
                }
            }
        }
    }
}
