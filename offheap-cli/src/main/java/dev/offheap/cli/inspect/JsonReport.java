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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A sample as one line of JSON, exact: every number as a JSON number in base units (bytes, milliseconds,
 * fractions of one, counts), never rounded or truncated; a figure the target did not give is {@code null}.
 * {@code version} is the schema's version ({@link #VERSION}); docs/inspect-json.md documents every field.
 * The top-level keys {@code rss}, {@code heap}, {@code direct}, {@code mapped},
 * {@code malloc}, {@code offheap} and {@code unexplained} are bytes: resident bytes of each part of the
 * attribution, except {@code direct}, the JDK's direct buffer memory, which lies inside {@code malloc}.
 * {@code direct} and {@code offheap} are null without JMX, which alone reads them.
 * {@code details} holds the figures behind them, {@code attribution} every part, {@code delta} (watch mode)
 * the change since the previous sample.
 */
final class JsonReport {
    /**
     * The version of the document's schema: 3 since findings are objects with an id and a severity and the
     * allocators are listed (2: the parts resident pages only).
     */
    static final int VERSION = 3;

    private JsonReport() {}

    static String of(Sample previous, Sample now, List<Finding> findings) {
        return of(previous, now, findings, null);
    }

    /** With a watch's {@code history}, also {@code growth}: each figure's rate over the samples so far. */
    static String of(Sample previous, Sample now, List<Finding> findings, WatchHistory history) {
        Json json = new Json().beginObject();
        json.field("version", VERSION).field("pid", now.pid()).field("time", now.time().toString()).field("vm", now.jvm().vm());
        headline(json, now);
        json.field("unexplainedShare", now.attribution().unexplainedShare());
        json.key("details").beginObject();
        rss(json, now.memory());
        heap(json, now);
        jvm(json, now);
        direct(json, now);
        mapped(json, now);
        malloc(json, now);
        offheap(json, now);
        if (now.container() != null && !"not read".equals(now.container().problem())) {
            json.key("container");
            ContainerMemory.writeJson(json, now.container());
        }
        if (now.ceilings() != null) {
            json.key("ceilings");
            now.ceilings().writeJson(json);
        }
        json.endObject();
        json.key("attribution").beginArray();
        for (Attribution.Part p : now.attribution().parts()) {
            json.beginObject().field("part", p.key()).field("bytes", p.bytes()).key("exact").value(p.exact())
                    .key("bound").value(p.bound() < 0 ? null : p.bound()).field("source", p.source()).endObject();
        }
        json.endArray();
        now.nativeCallers().ifPresent(r -> {
            json.key("nativeCallers").beginObject().field("profiler", NativeCallers.PROFILER)
                    .field("windowMillis", r.window().toMillis()).field("allocated", r.allocatedBytes())
                    .field("held", r.heldBytes()).field("frees", r.frees());
            json.key("sites").beginArray();
            for (NativeCallers.Site site : r.sites()) {
                json.beginObject().field("library", site.library()).field("javaFrame", site.javaFrame())
                        .field("caller", site.caller()).field("held", site.heldBytes()).field("heldCount", site.heldCount())
                        .field("allocated", site.allocatedBytes()).field("allocatedCount", site.allocatedCount())
                        .endObject();
            }
            json.endArray().endObject();
        });
        json.key("caches").beginArray();
        for (NativeCaches.Cache c : now.nativeCaches()) {
            json.beginObject().field("component", c.component()).field("name", c.name())
                    .field("capacity", c.capacityBytes()).field("source", c.source()).endObject();
        }
        json.endArray();
        json.key("allocators").beginArray();
        for (NativeAllocator a : now.memory().otherAllocators()) {
            json.beginObject().field("name", a.name()).field("library", a.library()).key("linkedIn").value(a.linkedIn())
                    .endObject();
        }
        json.endArray();
        json.key("findings").beginArray();
        for (Finding f : findings) {
            json.beginObject().field("id", f.id()).field("severity", f.severity().key()).field("text", f.text()).endObject();
        }
        json.endArray();
        if (previous != null) {
            json.key("delta").beginObject();
            json.field("millis", Duration.between(previous.time(), now.time()).toMillis());
            Long[] was = headlineValues(previous);
            Long[] is = headlineValues(now);
            for (int i = 0; i < HEADLINE.length; i++) {
                number(json, HEADLINE[i], is[i] == null || was[i] == null ? null : is[i] - was[i]);
            }
            if (now.buffers().isPresent() && previous.buffers().isPresent()) {
                json.field("directCount", now.buffers().get().direct().count() - previous.buffers().get().direct().count());
            }
            json.endObject();
        }
        if (history != null) {
            json.key("growth").beginArray();
            for (Attribution.Part p : now.attribution().parts()) {
                growth(json, p.key(), history);
            }
            growth(json, WatchHistory.UNEXPLAINED, history);
            if (now.reports().malloc() != null) {
                growth(json, WatchHistory.MALLOC_IN_USE, history);
                growth(json, WatchHistory.MALLOC_FREE, history);
            }
            json.endArray();
        }
        return json.endObject().toString();
    }

    private static void growth(Json json, String key, WatchHistory history) {
        java.util.Optional<Growth> g = history.growth(key);
        json.beginObject().field("figure", key).field("bytesPerSecond", history.rate(key))
                .field("samples", history.points(key).size()).key("steady").value(g.isPresent())
                .key("since").value(g.map(x -> x.since().toString()).orElse(null)).endObject();
    }

    private static final String[] HEADLINE = {"rss", "heap", "direct", "mapped", "malloc", "offheap", "unexplained"};

    /** The headline's figures; null for what was not read (direct buffers and offheap without JMX). */
    private static Long[] headlineValues(Sample s) {
        Attribution a = s.attribution();
        return new Long[] {s.memory().rss(), a.part(PartName.HEAP), s.buffers().map(b -> b.direct().memoryUsed()).orElse(null),
            a.part(PartName.MAPPED), a.part(PartName.MALLOC), s.offheap().isPresent() ? a.part(PartName.OFFHEAP) : null, a.unexplained()};
    }

    private static void headline(Json json, Sample now) {
        Long[] values = headlineValues(now);
        for (int i = 0; i < HEADLINE.length; i++) {
            number(json, HEADLINE[i], values[i]);
        }
    }

    private static void number(Json json, String key, Long value) {
        if (value == null) {
            json.key(key).value((String) null);
        } else {
            json.field(key, value.longValue());
        }
    }

    private static void rss(Json json, ProcessMemory m) {
        json.key("rss").beginObject().field("anonymous", m.anonymous()).field("fileBacked", m.fileBacked())
                .field("sharedMemory", m.sharedMemory()).field("sharedWithOthers", m.sharedWithOthers())
                .field("mappings", m.mappings());
        json.key("byKind").beginObject();
        for (Map.Entry<MappingKind, Long> e : m.byKind().entrySet()) {
            json.field(e.getKey().key(), e.getValue());
        }
        json.endObject().endObject();
    }

    private static void heap(Json json, Sample s) {
        JvmAreas j = s.jvm();
        json.key("heap").beginObject().field("resident", s.attribution().part(PartName.HEAP))
                .field("committed", j.heapCommitted()).field("used", j.heapUsed()).key("max").value(j.heapMax() < 0 ? null : j.heapMax()).endObject();
    }

    private static void jvm(Json json, Sample s) {
        JvmAreas j = s.jvm();
        Attribution a = s.attribution();
        json.key("jvm").beginObject().field("nmt", j.nmtMode()).field("threads", j.threads())
                .field("threadStacks", a.part(PartName.THREAD_STACKS)).field("metaspace", a.part(PartName.METASPACE))
                .field("metaspaceCommitted", j.metaspaceCommitted()).field("metaspaceUsed", j.metaspaceUsed())
                .field("codeCache", a.part(PartName.CODE_CACHE)).field("codeCacheCommitted", j.codeCacheCommitted());
        json.key("gcTablesEstimate").value(j.gcTablesEstimate() < 0 ? null : j.gcTablesEstimate());
        json.key("virtualThreads").value(s.virtualThreads().map(VirtualThreads::count).orElse(null));
        json.key("virtualThreadStacks").value(s.virtualThreads().map(VirtualThreads::stackBytes).orElse(null));
        NmtSummary nmt = s.reports().nmt();
        if (nmt != null) {
            json.field("gc", a.part(PartName.GC)).field("otherJvm", a.part(PartName.OTHER_JVM)).field("nmtMalloc", nmt.mallocTotal());
            json.key("nmtCategories").beginObject();
            for (Map.Entry<String, NmtSummary.Category> e : nmt.categories().entrySet()) {
                NmtSummary.Category c = e.getValue();
                json.key(e.getKey()).beginObject().field("committed", c.committed()).field("mmap", c.mmapCommitted())
                        .field("stack", c.stackCommitted()).field("malloc", c.mallocBytes()).endObject();
            }
            json.endObject();
        }
        json.endObject();
    }

    private static void direct(Json json, Sample s) {
        json.key("direct").beginObject();
        if (s.buffers().isEmpty()) {
            json.field("unavailable", Connection.NO_JMX);
        } else {
            BufferPools.Usage d = s.buffers().get().direct();
            BufferPools.Churn c = s.buffers().get().churn();
            json.field("count", d.count()).field("capacity", d.capacity()).field("memoryUsed", d.memoryUsed());
            json.key("churn").beginObject().field("windowMillis", c.windowMillis())
                    .field("createdPerSecond", c.createdPerSecond()).field("freedPerSecond", c.freedPerSecond())
                    .field("bytesCreatedPerSecond", c.bytesCreatedPerSecond())
                    .field("bytesFreedPerSecond", c.bytesFreedPerSecond()).endObject();
        }
        json.key("maxDirectMemorySize").value(s.jvm().maxDirectMemory() == 0 ? null : s.jvm().maxDirectMemory()).endObject();
    }

    private static void mapped(Json json, Sample s) {
        json.key("mapped").beginObject();
        if (s.buffers().isEmpty()) {
            json.field("unavailable", Connection.NO_JMX);
        } else {
            BufferPools.Usage m = s.buffers().get().mapped();
            json.field("count", m.count()).field("capacity", m.capacity()).field("memoryUsed", m.memoryUsed());
        }
        json.field("resident", s.attribution().part(PartName.MAPPED)).endObject();
    }

    private static void malloc(Json json, Sample s) {
        MallocInfo m = s.reports().malloc();
        json.key("malloc").beginObject();
        if (m == null) {
            json.field("unavailable", s.reports().mallocProblem());
        } else {
            json.field("resident", s.attribution().part(PartName.MALLOC)).field("inUse", m.inUseBytes())
                    .field("free", m.freeBytes()).field("topChunks", m.topBytes())
                    .field("keepcost", m.mainArenaTop()).field("arenas", m.arenas()).field("system", m.systemBytes())
                    .field("mmapped", m.mmappedBytes()).field("mmappedChunks", m.mmappedChunks())
                    .field("fragmentation", m.fragmentation());
        }
        json.endObject();
    }

    private static void offheap(Json json, Sample s) {
        if (s.offheap().isEmpty()) {
            json.key("offheap").value((String) null);
            return;
        }
        List<OffheapBean> beans = s.offheap().get();
        json.key("offheap").beginArray();
        for (OffheapBean b : beans) {
            json.beginObject().field("type", b.type()).field("name", b.name());
            if (b.path() != null) {
                json.field("path", b.path());
            }
            if (b.isPool()) {
                json.field("resident", s.memory().byOwner().getOrDefault(b.owner(), 0L)).field("reserved", b.reservedBytes())
                        .field("ranges", b.addressRanges().length / 2);
            }
            b.numbers().forEach((name, value) -> json.key(name).value(value));
            json.endObject();
        }
        json.endArray();
    }
}
