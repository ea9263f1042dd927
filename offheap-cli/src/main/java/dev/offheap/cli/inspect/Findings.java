package dev.offheap.cli.inspect;

import dev.offheap.account.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Known pathologies a sample (and the one before it, in watch mode) shows, in plain words. */
final class Findings {
    private static final long MIB = 1 << 20;
    /** Direct buffers created and freed per second (and in watch mode, net change between samples). */
    private static final int CHURN_BUFFERS = 20;
    private static final double HIGH_FRAGMENTATION = 0.5;
    private static final long FRAGMENTED_BYTES = 32 * MIB;

    private Findings() {}

    static List<String> of(Sample previous, Sample now) {
        List<String> found = new ArrayList<>();
        directChurn(previous, now, found);
        malloc(now, found);
        directLimit(now, found);
        heapShare(now, found);
        offheapLeaks(now, found);
        blindSpots(now, found);
        return found;
    }

    private static void directChurn(Sample previous, Sample now, List<String> found) {
        if (now.buffers().isEmpty()) {
            return; // read over JMX only
        }
        BufferPools.Churn churn = now.buffers().get().churn();
        if (churn.createdPerSecond() + churn.freedPerSecond() >= CHURN_BUFFERS) {
            found.add(String.format(Locale.ROOT, "Direct buffer churn: over %d ms at least %.0f direct buffers (%s)"
                    + " per second were created and %.0f (%s) freed. Each is freed by the GC's Cleaner after a"
                    + " collection, so allocation and GC pauses feed each other (seed 000). Reuse buffers: keep them,"
                    + " or lease them from a pool such as offheap's BufferPool.", churn.windowMillis(),
                    churn.createdPerSecond(), Bytes.human((long) churn.bytesCreatedPerSecond()),
                    churn.freedPerSecond(), Bytes.human((long) churn.bytesFreedPerSecond())));
        }
        if (previous != null && previous.buffers().isPresent()) {
            BufferPools.Usage before = previous.buffers().get().direct();
            BufferPools.Usage after = now.buffers().get().direct();
            long seconds = Math.max(1, java.time.Duration.between(previous.time(), now.time()).toSeconds());
            if (Math.abs(after.count() - before.count()) >= CHURN_BUFFERS) {
                found.add(String.format(Locale.ROOT, "Direct buffers went from %d (%s) to %d (%s) in %d s.",
                        before.count(), Bytes.human(before.capacity()), after.count(),
                        Bytes.human(after.capacity()), seconds));
            }
        }
    }

    private static void malloc(Sample now, List<String> found) {
        MallocInfo malloc = now.reports().malloc();
        if (malloc == null) {
            return;
        }
        long stuck = malloc.freeBytes() - malloc.mainArenaTop();
        if (malloc.fragmentation() >= HIGH_FRAGMENTATION && stuck >= FRAGMENTED_BYTES) {
            found.add(String.format(Locale.ROOT, "High malloc fragmentation: glibc holds %s free between chunks in"
                    + " use that it cannot give back (%.0f %% of the memory it cannot return, seed 002's measure)."
                    + " Remedies: MALLOC_ARENA_MAX=2; jemalloc (package libjemalloc2, LD_PRELOAD="
                    + "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2), which bounds fragmentation; `jcmd %d"
                    + " System.trim_native_heap` returns free pages now, -XX:TrimNativeHeapInterval=60000 every minute.",
                    Bytes.human(stuck), 100 * malloc.fragmentation(), now.pid()));
        }
        int cpus = Math.max(1, now.jvm().cpus());
        if (malloc.arenas() > 4 * cpus) {
            found.add(String.format(Locale.ROOT, "Many malloc arenas: %d for %d processors (glibc allows 8 per core);"
                    + " each keeps its own free memory (%s free in all). MALLOC_ARENA_MAX=2 (or 4) caps them.",
                    malloc.arenas(), cpus, Bytes.human(malloc.freeBytes())));
        }
    }

    private static void directLimit(Sample now, List<String> found) {
        if (now.jvm().maxDirectMemory() == 0) {
            String max = now.jvm().heapMax() > 0 ? Bytes.human(now.jvm().heapMax()) + " (the maximum heap)"
                    : "the maximum heap";
            found.add("Direct memory has no limit of its own (-XX:MaxDirectMemorySize is not set): direct buffers"
                    + " may take up to " + max + " on top of the heap. Set"
                    + " -XX:MaxDirectMemorySize. Memory from FFM arenas other than Arena.ofAuto() is never limited"
                    + " by it.");
        }
    }

    private static void heapShare(Sample now, List<String> found) {
        long rss = now.memory().rss();
        long heap = now.attribution().part("heap");
        if (rss > 0 && heap < rss / 2 && rss - heap >= 128 * MIB) {
            found.add(String.format(Locale.ROOT, "The Java heap is only %s of %s resident (%.0f %%): most of this"
                    + " process's memory is outside the heap; the parts above say where (seed 002's service showed"
                    + " a 2.5 GB heap in a 6 GB process).", Bytes.human(heap), Bytes.human(rss), 100.0 * heap / rss));
        }
    }

    private static void offheapLeaks(Sample now, List<String> found) {
        for (OffheapBean bean : now.offheap().orElse(List.of())) {
            if (bean.number("Leaks") > 0) {
                found.add("offheap " + bean.type() + " '" + bean.name() + "' reported " + bean.number("Leaks")
                        + " leaked buffer(s): see the LEAK: warnings in its log for the acquiring stacks.");
            }
        }
    }

    private static void blindSpots(Sample now, List<String> found) {
        if (now.memory().otherAllocator() != null) {
            found.add("The target maps " + now.memory().otherAllocator() + ": malloc's figures are glibc's only, and"
                    + " what that allocator holds counts as unexplained.");
        }
        if (now.reports().malloc() == null) {
            found.add("malloc statistics unavailable: " + now.reports().mallocProblem());
        }
        if (!now.jvm().nmtEnabled()) {
            found.add("NMT is off, so GC structures and the JVM's smaller mappings count as unexplained. Restart the"
                    + " JVM with -XX:NativeMemoryTracking=summary to see them (it cannot be switched on in a running"
                    + " JVM; it costs a little memory and speed).");
        }
        double share = now.attribution().unexplainedShare();
        if (share >= 0.10) {
            found.add(String.format(Locale.ROOT, "%s (%.0f %% of RSS) is unexplained: memory mapped by native code"
                    + " outside malloc, another allocator, or (without NMT) the JVM's own structures.",
                    Bytes.human(now.attribution().unexplained()), 100 * share));
        }
    }
}
