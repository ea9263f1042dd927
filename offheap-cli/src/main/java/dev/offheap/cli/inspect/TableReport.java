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
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A sample as tables for people; in watch mode with a column of changes since the previous sample. */
final class TableReport {
    private final StringBuilder out = new StringBuilder();

    private TableReport() {}

    static String of(Sample previous, Sample now, List<Finding> findings) {
        TableReport t = new TableReport();
        t.header(now);
        t.rss(previous, now);
        t.parts(previous, now);
        t.jvm(now);
        t.buffers(previous, now);
        t.malloc(now);
        t.offheap(now);
        t.container(previous, now);
        t.nativeCallers(now);
        t.findings(findings);
        return t.out.toString();
    }

    /**
     * Watch mode after its first sample: one line with the time, RSS and every part that changed by 64 KiB or
     * more, then the findings that were not there at the sample before, in full.
     */
    static String change(Sample previous, Sample now, List<Finding> findings, List<Finding> before) {
        TableReport t = new TableReport();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%s  RSS %s (%s)",
                now.time().toString().substring(11, 19), Bytes.human(now.memory().rss()),
                signed(now.memory().rss() - previous.memory().rss())));
        Attribution a = now.attribution();
        for (Attribution.Part p : a.parts()) {
            long change = p.bytes() - previous.attribution().part(p.key());
            if (Math.abs(change) >= CHANGE) {
                line.append(String.format(Locale.ROOT, "  %s %s (%s)", p.label(), Bytes.human(p.bytes()), signed(change)));
            }
        }
        long unexplained = a.unexplained() - previous.attribution().unexplained();
        if (Math.abs(unexplained) >= CHANGE) {
            line.append(String.format(Locale.ROOT, "  unexplained %s (%s)", Bytes.human(a.unexplained()), signed(unexplained)));
        }
        t.out.append(line).append('\n');
        List<String> known = before.stream().map(Finding::id).toList();
        for (Finding f : findings) {
            if (!known.contains(f.id())) {
                t.line("  - [%s] %s", f.severity().key(), f.text());
            }
        }
        return t.out.toString();
    }

    private static final long CHANGE = 64 * 1024;

    private void line(String format, Object... args) {
        out.append(String.format(Locale.ROOT, format, args)).append('\n');
    }

    private void header(Sample s) {
        line("offheap inspect %d (%s), %s, %d CPUs, %s", s.pid(), TargetProcess.name(s.pid()), s.jvm().vm(),
                s.jvm().cpus(), s.time());
    }

    private void rss(Sample previous, Sample s) {
        ProcessMemory m = s.memory();
        line("");
        line("Resident memory (RSS) %s%s: anonymous %s, file-backed %s, shared memory %s (%s also mapped by other processes)",
                Bytes.human(m.rss()), delta(previous == null ? null : previous.memory().rss(), m.rss()),
                Bytes.human(m.anonymous()), Bytes.human(m.fileBacked()), Bytes.human(m.sharedMemory()),
                Bytes.human(m.sharedWithOthers()));
        line("  by mapping kind (%d mappings):", m.mappings());
        for (MappingKind kind : MappingKind.values()) {
            if (m.of(kind) > 0) {
                line("    %-44s %11s", kind.label(), Bytes.human(m.of(kind)));
            }
        }
    }

    private void parts(Sample previous, Sample s) {
        Attribution a = s.attribution();
        // A label longer than the column (an allocator inside a library: "jemalloc in libduckdb_java*.so") widens it
        int width = Math.max(26, a.parts().stream().mapToInt(p -> p.label().length()).max().orElse(0));
        String row = "  %-" + width + "s %11s %6.1f%% %12s  %s%s";
        line("");
        line("%-" + (width + 3) + "s%11s %7s %12s  %s", "Where RSS goes", "resident", "share",
                previous == null ? "" : "change", "from");
        for (Attribution.Part p : a.parts()) {
            String bound = p.bound() >= 0 ? " (at most " + Bytes.human(p.bound()) + ")" : "";
            line(row, p.label(), Bytes.human(p.bytes()), share(p.bytes(), a.rss()),
                    previous == null ? "" : signed(p.bytes() - previous.attribution().part(p.key())), p.source(), bound);
        }
        line(row, "unexplained", Bytes.human(a.unexplained()), 100 * a.unexplainedShare(),
                previous == null ? "" : signed(a.unexplained() - previous.attribution().unexplained()),
                "RSS minus the parts above", unexplainedNote(s));
    }

    private static String unexplainedNote(Sample s) {
        Attribution a = s.attribution();
        if (!s.jvm().attached()) {
            return " (not attached: the heap and the JVM's own regions are in here)";
        }
        if (s.jvm().nmtEnabled()) {
            return "";
        }
        if (a.parts().stream().anyMatch(p -> p.is(PartName.OTHER_ALLOCATOR))) {
            return " (NMT is off: the GC's structures are in the other allocator's part)";
        }
        return a.parts().stream().anyMatch(p -> p.is(PartName.GC))
                ? " (NMT is off: the JVM's smaller regions are in here)" : " (NMT is off: the GC's structures are in here)";
    }

    private void jvm(Sample s) {
        if (!s.jvm().attached()) {
            line("");
            line("JVM         not attached (--no-attach): %d threads, stacks %s resident", s.jvm().threads(),
                    Bytes.human(s.attribution().part(PartName.THREAD_STACKS)));
            return;
        }
        JvmAreas j = s.jvm();
        line("");
        line("JVM");
        line("  heap        %s used, %s committed, %s resident, max %s", known(j.heapUsed()),
                known(j.heapCommitted()), Bytes.human(s.attribution().part(PartName.HEAP)),
                j.heapMax() < 0 ? "unknown" : Bytes.human(j.heapMax()));
        line("  metaspace   %s used, %s committed", known(j.metaspaceUsed()), known(j.metaspaceCommitted()));
        line("  code cache  %s committed, %s resident", known(j.codeCacheCommitted()),
                Bytes.human(s.attribution().part(PartName.CODE_CACHE)));
        line("  threads     %s platform (the JVM's own included), stacks %s resident", j.threads() < 0 ? "?" : j.threads(),
                Bytes.human(s.attribution().part(PartName.THREAD_STACKS)));
        line("  virtual     %s", s.virtualThreads().map(v -> String.format(Locale.ROOT, "%d threads, their stacks %s"
                + " in the heap (GC.class_histogram -all: ended ones not yet collected included)", v.count(),
                Bytes.human(v.stackBytes()))).orElse("not counted: their stacks live in the heap (--virtual-threads"
                + " walks the heap for them)"));
        NmtSummary nmt = s.reports().nmt();
        if (nmt == null) {
            line("  NMT         %s: start the JVM with -XX:NativeMemoryTracking=summary for GC structures and the rest", j.nmtMode());
        } else {
            line("  NMT         %s, committed: GC structures %s, other JVM mappings %s, malloc'd by the JVM %s (inside malloc below)",
                    j.nmtMode(), Bytes.human(nmt.gc()), Bytes.human(nmt.otherMapped()), Bytes.human(nmt.mallocTotal()));
        }
    }

    private void buffers(Sample previous, Sample s) {
        String limit = s.jvm().maxDirectMemory() == 0 ? "none set (the max heap)" : Bytes.human(s.jvm().maxDirectMemory());
        line("");
        line("JDK buffer pools");
        if (s.buffers().isEmpty()) {
            line("  direct buffers: %s", Connection.NO_JMX);
            line("  direct      limit %s", limit);
            line("  mapped      data files %s resident", Bytes.human(s.attribution().part(PartName.MAPPED)));
            return;
        }
        BufferPools.Usage d = s.buffers().get().direct();
        BufferPools.Churn c = s.buffers().get().churn();
        BufferPools.Usage m = s.buffers().get().mapped();
        line("  direct      %d buffers%s, %s capacity, %s memory (malloc'd), limit %s", d.count(),
                previous == null || previous.buffers().isEmpty() ? ""
                        : " (" + signedCount(d.count() - previous.buffers().get().direct().count()) + ")",
                Bytes.human(d.capacity()), Bytes.human(d.memoryUsed()), limit);
        line("              per second over %d ms: %.0f created (%s), %.0f freed (%s)", c.windowMillis(),
                c.createdPerSecond(), Bytes.human((long) c.bytesCreatedPerSecond()), c.freedPerSecond(),
                Bytes.human((long) c.bytesFreedPerSecond()));
        line("              FFM arenas (and Netty 4.2's pooled memory on JDK 24+) are not direct buffers: their memory"
                + " counts in malloc");
        line("  mapped      %d buffers, %s capacity; data files %s resident", m.count(), Bytes.human(m.capacity()),
                Bytes.human(s.attribution().part(PartName.MAPPED)));
    }

    private void malloc(Sample s) {
        MallocInfo m = s.reports().malloc();
        line("");
        if (m == null) {
            line("malloc      unavailable: %s", s.reports().mallocProblem());
            nativeComponents(s);
            return;
        }
        line("malloc (glibc's malloc_info, through System.native_heap_info)");
        line("  in use %s (of which direct buffers %s), free %s (%.1f %%), top chunks %s, %d arenas, %d chunks mapped on their own (%s)",
                Bytes.human(m.inUseBytes()), s.buffers().map(b -> Bytes.human(b.direct().memoryUsed())).orElse("not read"),
                Bytes.human(m.freeBytes()), 100 * m.freeShare(), Bytes.human(m.topBytes()), m.arenas(), m.mmappedChunks(),
                Bytes.human(m.mmappedBytes()));
        line("  fragmentation %.1f %% (free but not returnable / all not returnable, over the arenas)",
                100 * m.fragmentation());
        nativeComponents(s);
    }

    /** The allocators besides glibc's and the caches native libraries keep by design. */
    private void nativeComponents(Sample s) {
        for (NativeAllocator a : s.memory().otherAllocators()) {
            line("  other allocator: %s", a.describe());
        }
        for (NativeCaches.Cache c : s.nativeCaches()) {
            line("  cache by design: %s's %s, capacity %s (its LOG: %s)", c.component(), c.name(),
                    Bytes.human(c.capacityBytes()), c.source());
        }
    }

    private void offheap(Sample s) {
        Optional<List<OffheapBean>> read = s.offheap();
        line("");
        if (read.isEmpty()) {
            line("offheap     MBeans %s", Connection.NO_JMX);
            return;
        }
        List<OffheapBean> beans = read.get();
        if (beans.isEmpty()) {
            line("offheap     no dev.offheap MBeans in the target");
            return;
        }
        line("offheap");
        for (OffheapBean b : beans) {
            if (b.isPool()) {
                line("  %-10s %-16s resident %s of %s reserved, from OS %s, in use %s, cached %s, peak %s, limit %s,"
                        + " leaks %d", b.type(), b.name(), Bytes.human(s.memory().byOwner().getOrDefault(b.owner(), 0L)),
                        Bytes.human(b.reservedBytes()), Bytes.human(b.number("BytesFromOs")), Bytes.human(b.number("BytesInUse")),
                        Bytes.human(b.number("BytesCached")), Bytes.human(b.number("PeakBytes")),
                        limit(b.number("LimitBytes")), b.number("Leaks"));
            } else {
                line("  %-10s %-16s used %s, peak %s, limit %s", b.type(), b.path() == null ? b.name() : b.path(),
                        Bytes.human(b.number("UsedBytes")), Bytes.human(b.number("PeakBytes")), limit(b.number("LimitBytes")));
            }
        }
    }

    private void container(Sample previous, Sample s) {
        if (s.container() == null || s.container().problem() != null && s.container().problem().equals("not read")) {
            return;
        }
        line("");
        ContainerMemory c = s.containerMemory();
        if (c == null) {
            line("container   %s", s.container().problem());
        } else {
            c.tableLines(previous == null ? null : previous.containerMemory()).forEach(l -> line("%s", l));
            if (c.usage() != null && c.usage().value() > 0) {
                line("  this JVM     %s RSS, %.0f %% of the cgroup's usage: the cgroup counts every process in it and"
                        + " their page cache", Bytes.human(s.memory().rss()), 100.0 * s.memory().rss() / c.usage().value());
            }
        }
        if (s.ceilings() != null) {
            s.ceilings().tableLines(c).forEach(l -> line("%s", l));
        }
    }

    private void nativeCallers(Sample s) {
        if (s.nativeCallers().isEmpty()) {
            return;
        }
        NativeCallers.Result r = s.nativeCallers().get();
        line("");
        line("Native allocations by Java call site (%s, %d s): %s allocated, %s of it still held, %d frees",
                NativeCallers.PROFILER, r.window().toSeconds(), Bytes.human(r.allocatedBytes()),
                Bytes.human(r.heldBytes()), r.frees());
        line("  %11s %8s %11s  %s", "held", "count", "allocated", "site (caller -> Java method (library))");
        for (NativeCallers.Site site : r.sites()) {
            line("  %11s %8d %11s  %s", Bytes.human(site.heldBytes()), site.heldCount(), Bytes.human(site.allocatedBytes()),
                    site.describe());
        }
        line("  Only allocations in the window; an allocator linked inside a library is not seen.");
    }

    private void findings(List<Finding> findings) {
        line("");
        line(findings.isEmpty() ? "Findings: none" : "Findings");
        for (Finding f : findings) {
            line("  - [%s] %s", f.severity().key(), f.text());
        }
    }

    /** Bytes, or "?" for a figure the target did not give (-1). */
    private static String known(long bytes) {
        return bytes < 0 ? "?" : Bytes.human(bytes);
    }

    private static String limit(long bytes) {
        return bytes < 0 || bytes == Long.MAX_VALUE ? "none" : Bytes.human(bytes);
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static String delta(Long before, long after) {
        return before == null ? "" : " (" + signed(after - before) + ")";
    }

    private static String signed(long bytes) {
        return (bytes >= 0 ? "+" : "-") + Bytes.human(Math.abs(bytes));
    }

    private static String signedCount(long n) {
        return (n >= 0 ? "+" : "") + n;
    }
}
