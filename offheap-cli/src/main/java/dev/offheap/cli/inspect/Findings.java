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

import dev.offheap.account.Bytes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Known pathologies a sample (and the one before it, in watch mode) shows, in plain words, each naming its
 * figures and where they come from. Quiet on a healthy JVM: every finding has a line a healthy process stays
 * below (a rate, a share, a size), not a mere count or a default setting.
 */
final class Findings {
    private static final long MIB = 1 << 20;
    /** Direct buffers created or freed per second that make churn: a server's few a second do not. */
    private static final double CHURN_PER_SECOND = 100;
    private static final double HIGH_FRAGMENTATION = 0.5;
    private static final long FRAGMENTED_BYTES = 32 * MIB;
    private static final long ARENAS_FREE_BYTES = 64 * MIB;
    private static final double ARENAS_FREE_SHARE = 0.25;
    private static final double DIRECT_SHARE_OF_MAX_HEAP = 0.25;
    private static final long DIRECT_WITHOUT_MAX_HEAP = 256 * MIB;
    private static final long OUTSIDE_HEAP = 128 * MIB;
    private static final double UNEXPLAINED_SHARE = 0.10;
    private static final long VIRTUAL_STACKS = 64 * MIB;
    private static final double VIRTUAL_STACKS_SHARE = 0.25;

    private Findings() {}

    static List<Finding> of(Sample previous, Sample now) {
        return of(previous, now, null);
    }

    /** With a watch's {@code history} (null for none), also the parts that grow steadily ({@link GrowthFindings}). */
    static List<Finding> of(Sample previous, Sample now, WatchHistory history) {
        List<Finding> found = new ArrayList<>(GrowthFindings.of(history, now));
        directChurn(previous, now, found);
        malloc(now, found);
        directLimit(now, found);
        heapShare(now, found);
        offheapLeaks(now, found);
        virtualThreadStacks(now, found);
        NativeCallerFindings.addTo(now, found);
        nativeCaches(now, found);
        unexplained(now, found);
        if (now.containerMemory() != null && now.ceilings() != null) {
            found.addAll(ContainerFindings.of(now.containerMemory(), now.ceilings(),
                    previous == null ? null : previous.containerMemory(), previous == null ? null : previous.ceilings(),
                    previous == null ? java.time.Duration.ZERO : java.time.Duration.between(previous.time(), now.time())));
        }
        return found;
    }

    private static void directChurn(Sample previous, Sample now, List<Finding> found) {
        if (now.buffers().isEmpty()) {
            return; // read over JMX only
        }
        BufferPools.Churn churn = now.buffers().get().churn();
        if (churn.windowMillis() > 0 && Math.max(churn.createdPerSecond(), churn.freedPerSecond()) >= CHURN_PER_SECOND) {
            found.add(Finding.warning("direct-buffer-churn", String.format(Locale.ROOT, "Direct buffer churn: at least"
                    + " %.0f direct buffers a second created (%s/s) and %.0f freed (BufferPoolMXBean 'direct', polled"
                    + " over %d ms). Each is freed by the GC's Cleaner only after a collection finds it unreachable, so"
                    + " allocating them and GC pauses feed each other. Reuse buffers: keep them, or lease them from a"
                    + " pool such as offheap's BufferPool.",
                    churn.createdPerSecond(), Bytes.human((long) churn.bytesCreatedPerSecond()), churn.freedPerSecond(),
                    churn.windowMillis())));
        }
        if (previous != null && previous.buffers().isPresent()) {
            BufferPools.Usage before = previous.buffers().get().direct();
            BufferPools.Usage after = now.buffers().get().direct();
            double between = Math.max(1, java.time.Duration.between(previous.time(), now.time()).toMillis()) / 1000.0;
            if (Math.abs(after.count() - before.count()) >= CHURN_PER_SECOND * between) {
                found.add(Finding.warning("direct-buffer-count-change", String.format(Locale.ROOT, "Direct buffers"
                        + " went from %d (%s) to %d (%s) in %.1f s (BufferPoolMXBean 'direct'): %.0f a second.",
                        before.count(), Bytes.human(before.capacity()), after.count(), Bytes.human(after.capacity()),
                        between, Math.abs(after.count() - before.count()) / between)));
            }
        }
    }

    private static void malloc(Sample now, List<Finding> found) {
        MallocInfo malloc = now.reports().malloc();
        if (!now.memory().otherAllocators().isEmpty()) {
            found.add(OtherAllocatorFinding.of(now));
            if (now.memory().otherAllocators().stream().anyMatch(a -> !a.linkedIn())) {
                return; // glibc's malloc is replaced: its fragmentation no longer applies
            }
        }
        if (malloc == null) {
            return;
        }
        if (malloc.freeShare() >= HIGH_FRAGMENTATION && malloc.freeBytes() >= FRAGMENTED_BYTES) {
            found.add(Finding.warning("malloc-fragmentation", String.format(Locale.ROOT, "High malloc fragmentation:"
                    + " glibc's arenas hold %s free of the %s they"
                    + " took from the OS (%.1f %%; malloc_info: free = the fast and regular bins' totals, taken ="
                    + " system current). Memory freed between chunks still in use stays with the process. Remedies:"
                    + " MALLOC_ARENA_MAX=2; jemalloc (package libjemalloc2, LD_PRELOAD="
                    + "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2), which bounds fragmentation; `jcmd %d"
                    + " System.trim_native_heap` gives the free whole pages back now, -XX:TrimNativeHeapInterval=60000"
                    + " every minute.", Bytes.human(malloc.freeBytes()), Bytes.human(malloc.systemBytes()),
                    100 * malloc.freeShare(), now.pid())));
        }
        int cpus = Math.max(1, now.jvm().cpus());
        if (malloc.arenas() > 4 * cpus && malloc.freeBytes() >= ARENAS_FREE_BYTES
                && malloc.freeShare() >= ARENAS_FREE_SHARE) {
            found.add(Finding.warning("malloc-arenas", String.format(Locale.ROOT, "Many malloc arenas: %d for %d"
                    + " processors (glibc allows 8 per core), holding %s free (%.1f %% of what they took; malloc_info)."
                    + " Each arena keeps its own free memory: MALLOC_ARENA_MAX=2 (or 4) caps them.", malloc.arenas(),
                    cpus, Bytes.human(malloc.freeBytes()), 100 * malloc.freeShare())));
        }
    }

    private static void directLimit(Sample now, List<Finding> found) {
        JvmAreas jvm = now.jvm();
        if (now.buffers().isEmpty()) {
            return; // read over JMX only
        }
        long direct = now.buffers().get().direct().memoryUsed();
        boolean large = jvm.heapMax() > 0 ? direct >= DIRECT_SHARE_OF_MAX_HEAP * jvm.heapMax() : direct >= DIRECT_WITHOUT_MAX_HEAP;
        if (jvm.maxDirectMemory() == 0 && large) {
            String max = jvm.heapMax() > 0 ? Bytes.human(jvm.heapMax()) + " (the maximum heap)" : "the maximum heap";
            found.add(Finding.warning("direct-buffers-unlimited", "Direct buffers hold " + Bytes.human(direct)
                    + " (BufferPoolMXBean 'direct') and have no limit of their own (-XX:MaxDirectMemorySize is not set):"
                    + " they may take up to " + max + " on top of the heap. Set -XX:MaxDirectMemorySize. Memory from FFM"
                    + " arenas other than Arena.ofAuto() is never limited by it."));
        }
    }

    /** Mapped files and program files are left out: a large mapped index next to a small heap is healthy. */
    private static void heapShare(Sample now, List<Finding> found) {
        Attribution a = now.attribution();
        long heap = a.part(PartName.HEAP);
        long anonymous = now.memory().rss() - a.part(PartName.MAPPED) - a.part(PartName.PROGRAM_FILES) - a.part(PartName.SHARED_MEMORY);
        if (anonymous > 0 && heap < anonymous / 2 && anonymous - heap >= OUTSIDE_HEAP) {
            found.add(Finding.info("heap-small-share", String.format(Locale.ROOT, "The Java heap is only %s of the %s"
                    + " resident that is not a file (%.0f %%): most of this process's own memory is outside the heap"
                    + " (largest: %s), where -Xmx does not bound it.",
                    Bytes.human(heap), Bytes.human(anonymous), 100.0 * heap / anonymous, largestOutsideHeap(a))));
        }
    }

    private static void offheapLeaks(Sample now, List<Finding> found) {
        for (OffheapBean bean : now.offheap().orElse(List.of())) {
            if (bean.number("Leaks") > 0) {
                found.add(Finding.warning("offheap-leaks", "offheap " + bean.type() + " '" + bean.name() + "' reported "
                        + bean.number("Leaks") + " leaked buffer(s): see the LEAK: warnings in its log for the acquiring"
                        + " stacks."));
            }
        }
    }

    /** Only with {@code --virtual-threads}: the heap walk is the only source. */
    private static void virtualThreadStacks(Sample now, List<Finding> found) {
        now.virtualThreads().filter(v -> v.stackBytes() >= VIRTUAL_STACKS
                && v.stackBytes() >= VIRTUAL_STACKS_SHARE * now.jvm().heapUsed()).ifPresent(v -> found.add(
                Finding.info("virtual-thread-stacks", String.format(Locale.ROOT, "%d virtual threads hold %s of stacks"
                        + " in the heap (%.0f %% of the heap in use; GC.class_histogram -all). A virtual thread that"
                        + " waits keeps its frames as heap objects: they count against -Xmx, not as thread stacks, so"
                        + " size the heap for them (or end the threads that wait).", v.count(),
                        Bytes.human(v.stackBytes()), 100.0 * v.stackBytes() / Math.max(1, now.jvm().heapUsed())))));
    }

    /** A cache a native library keeps by design: memory held on purpose, up to its configured size. */
    private static void nativeCaches(Sample now, List<Finding> found) {
        if (now.nativeCaches().isEmpty()) {
            return;
        }
        boolean malloc = now.memory().otherAllocators().isEmpty();
        long part = now.attribution().part(malloc ? PartName.MALLOC : PartName.OTHER_ALLOCATOR);
        long capacity = NativeCaches.total(now.nativeCaches());
        found.add(Finding.info("native-cache", String.format(Locale.ROOT, "%s: up to %s held by design, inside %s's"
                + " %s (%.0f %% of it at most). Memory a cache keeps up to its capacity is not a leak; to hold less,"
                + " configure a smaller cache.", NativeCaches.describe(now.nativeCaches()), Bytes.human(capacity),
                malloc ? "malloc" : "the other allocator", Bytes.human(part),
                part == 0 ? 0.0 : Math.min(100.0, 100.0 * capacity / part))));
    }

    private static void unexplained(Sample now, List<Finding> found) {
        double share = now.attribution().unexplainedShare();
        if (share >= UNEXPLAINED_SHARE) {
            String nmt = now.jvm().nmtEnabled() || !now.jvm().attached() ? ""
                    : " Part of it may be the JVM's own regions (GC structures, among others), which only Native Memory"
                    + " Tracking labels: restart the JVM with -XX:NativeMemoryTracking=summary to count them (it cannot"
                    + " be switched on in a running JVM; it costs a little memory and speed). NMT never sees memory a"
                    + " native library maps itself.";
            found.add(Finding.warning("unexplained-memory", String.format(Locale.ROOT, "%s (%.0f %% of RSS) is"
                    + " unexplained: anonymous memory that no part can show is its own, mapped outside malloc by native"
                    + " code or by the JVM.%s", Bytes.human(now.attribution().unexplained()), 100 * share, nmt)));
        }
    }

    /** The two largest parts other than the heap and files (unexplained among them), largest first. */
    private static String largestOutsideHeap(Attribution a) {
        List<Attribution.Part> candidates = new ArrayList<>(a.parts().stream()
                .filter(p -> !p.is(PartName.HEAP) && !p.is(PartName.MAPPED) && !p.is(PartName.PROGRAM_FILES)
                        && !p.is(PartName.SHARED_MEMORY)).toList());
        candidates.add(new Attribution.Part("unexplained", "unexplained", a.unexplained(), false, -1, ""));
        return String.join(", ", candidates.stream().filter(p -> p.bytes() > 0)
                .sorted(Comparator.comparingLong(Attribution.Part::bytes).reversed()).limit(2)
                .map(p -> p.label() + " " + Bytes.human(p.bytes())).toList());
    }
}
