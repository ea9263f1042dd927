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
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.management.MBeanServerConnection;

/**
 * Takes {@link Sample}s of one attached target. Each sample runs {@code GC.heap_info} and {@code Compiler.codecache}
 * once (the JVM's figures and the native reports both read them), the native reports' commands, reads
 * {@code /proc/PID/smaps}, status and maps; what never changes ({@code VM.version}, {@code VM.flags}) is read once.
 * Over JMX, when the connection has it, it also reads the buffer pools (polling the direct pool for its churn rate)
 * and offheap's MBeans.
 */
final class Sampler {
    /** The churn window over JMX: 10 intervals of 50 ms. */
    private static final int CHURN_POLLS = 11;
    private static final long CHURN_POLL_MILLIS = 50;

    private final Connection connection;
    private final DiagnosticCommands commands;
    private final JvmAreas.Facts facts;
    private final boolean virtualThreads;
    private final java.time.Duration nativeCallers;

    /**
     * A sample from {@code /proc} alone, for a JVM that cannot or must not be attached to ({@code --no-attach}):
     * smaps, pagemap, malloc's chunk headers, status and the cgroup; no diagnostic command, no JMX.
     */
    static Sample fromProc(long pid) throws IOException {
        List<Mapping> mappings = Smaps.parse(readSmaps(pid));
        JvmAreas jvm = JvmAreas.fromProc(pid);
        NativeReports reports = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, null,
                "not attached (--no-attach): no diagnostic command was run");
        Measured measured = measure(pid, mappings, jvm.javaHome(), new MappingClassifier(List.of(), List.of(), jvm.javaHome()),
                new ArrayList<>());
        return new Sample(pid, Instant.now(), measured.memory(), jvm, Optional.empty(), reports, Optional.empty(),
                Attribution.fromProc(measured.memory(), measured.chunks()), ContainerMemory.read(pid), null,
                Optional.empty(), Optional.empty(), NativeCaches.find(pid, mappings));
    }

    Sampler(Connection connection) throws IOException {
        this(connection, false, null);
    }

    /**
     * With {@code virtualThreads}, each sample also walks the heap for them ({@link VirtualThreads}); with
     * {@code nativeCallers} (null for none), each sample first records native allocations for that long
     * ({@link NativeCallers}).
     */
    Sampler(Connection connection, boolean virtualThreads, java.time.Duration nativeCallers) throws IOException {
        this.connection = connection;
        this.commands = connection.commands();
        this.facts = JvmAreas.Facts.read(commands, connection.pid());
        this.virtualThreads = virtualThreads;
        this.nativeCallers = nativeCallers;
    }

    Sample take() throws IOException {
        long pid = connection.pid();
        Optional<NativeCallers.Result> callers = nativeCallers == null ? Optional.empty()
                : Optional.of(NativeCallers.record(commands, pid, nativeCallers));
        Optional<MBeanServerConnection> server = connection.server();
        Optional<BufferPools> buffers = server.isEmpty() ? Optional.empty()
                : Optional.of(BufferPools.read(server.get(), CHURN_POLLS, CHURN_POLL_MILLIS));
        String heapInfo = commands.run("GC.heap_info").orElse("");
        String codeCache = commands.run("Compiler.codecache").orElse("");
        JvmAreas jvm = JvmAreas.read(pid, facts, commands, heapInfo, codeCache);
        Optional<List<OffheapBean>> offheap = server.isEmpty() ? Optional.empty()
                : Optional.of(OffheapBean.readAll(server.get()));
        NativeReports reports = NativeReports.read(commands, heapInfo, codeCache, jvm.nmtEnabled());
        List<Mapping> mappings = Smaps.parse(readSmaps(pid));
        List<OwnedRange> owned = new ArrayList<>(reports.vmMap().ranges());
        offheap.ifPresent(beans -> beans.forEach(bean -> owned.addAll(bean.ranges())));
        Measured measured = measure(pid, mappings, jvm.javaHome(),
                new MappingClassifier(reports.heapRanges(), reports.codeRanges(), jvm.javaHome()), owned);
        Attribution attribution = Attribution.of(measured.memory(), jvm, reports, offheap, measured.chunks());
        ContainerMemory.Result container = ContainerMemory.read(pid);
        Ceilings ceilings = commands.run("VM.flags", "-all").map(VmFlags::parse)
                .map(flags -> Ceilings.of(flags.settings(), usage(attribution, jvm, buffers, offheap)))
                .orElse(null);
        Optional<VirtualThreads> threads = virtualThreads
                ? commands.run("GC.class_histogram", "-all").map(VirtualThreads::parse) : Optional.empty();
        return new Sample(pid, Instant.now(), measured.memory(), jvm, buffers, reports, offheap, attribution, container,
                ceilings, threads, callers, NativeCaches.find(pid, mappings));
    }

    /** The resident memory by kind and owned range, and the chunks malloc mapped on its own, among them. */
    private record Measured(ProcessMemory memory, MallocChunks.Result chunks) {}

    /**
     * Finds malloc's chunks among the mappings no {@code owned} range explains, then counts every page once, and
     * the allocators besides malloc in the libraries outside {@code javaHome}.
     */
    private static Measured measure(long pid, List<Mapping> mappings, String javaHome, MappingClassifier classifier,
            List<OwnedRange> owned) {
        MallocChunks.Result chunks = MallocChunks.find(pid, chunkCandidates(mappings, classifier, owned));
        chunks.chunks().ifPresent(found -> found.forEach(
                c -> owned.add(new OwnedRange(c.start(), c.end(), PartName.MALLOC.key(), "malloc chunks", false))));
        ProcessMemory memory = ProcessMemory.of(mappings, classifier, owned,
                (start, end) -> Pagemap.residentBytes(pid, start, end));
        return new Measured(memory.withAllocators(NativeAllocators.find(pid, mappings, javaHome)), chunks);
    }

    /** Anonymous read-write mappings no kind and no owned range explains whole: where malloc maps chunks. */
    private static List<Mapping> chunkCandidates(List<Mapping> mappings, MappingClassifier classifier,
            List<OwnedRange> owned) {
        List<Mapping> candidates = new ArrayList<>();
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            if (m.rss() > 0 && m.permissions().startsWith("rw") && !m.isSharedMapping()
                    && classifier.kind(mappings, i) == MappingKind.ANONYMOUS
                    && owned.stream().noneMatch(r -> r.covers(m))) {
                candidates.add(m);
            }
        }
        return candidates;
    }

    private static Ceilings.Usage usage(Attribution a, JvmAreas jvm, Optional<BufferPools> buffers,
            Optional<List<OffheapBean>> offheap) {
        return new Ceilings.Usage(a.part(PartName.HEAP), buffers.map(b -> b.direct().memoryUsed()).orElse(-1L), jvm.metaspaceCommitted(),
                a.part(PartName.CODE_CACHE), jvm.threads(), a.part(PartName.THREAD_STACKS), a.part(PartName.MALLOC),
                a.part(PartName.OFFHEAP), rootBudgetLimit(offheap.orElse(List.of())));
    }

    /**
     * What offheap's root budgets allow together: the sum of their limits, or -1 when there is no root budget
     * or one has no limit ({@code Long.MAX_VALUE} since offheap 1.0, -1 before).
     */
    static long rootBudgetLimit(List<OffheapBean> beans) {
        long limit = 0;
        boolean roots = false;
        for (OffheapBean bean : beans) {
            if (bean.type().equals("MemoryBudget") && bean.path() != null && !bean.path().substring(1).contains("/")) {
                roots = true;
                long l = bean.number("LimitBytes");
                limit = l < 0 || l == Long.MAX_VALUE || limit < 0 ? -1 : limit + l;
            }
        }
        return roots ? limit : -1;
    }

    private static String readSmaps(long pid) throws IOException {
        try {
            return Files.readString(TargetProcess.file(pid, "smaps"));
        } catch (NoSuchFileException e) {
            throw InspectException.exited(pid);
        }
    }
}
