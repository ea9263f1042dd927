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
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The most memory the JVM's configuration lets each of its parts take, to set against the container's limit: a
 * pure function of the JVM's flags and its current figures.
 *
 * <p>The parts, each with its ceiling, or where there is none its size now:
 * <ul>
 *   <li>heap: {@code -Xmx} ({@code MaxHeapSize});</li>
 *   <li>direct buffers: {@code -XX:MaxDirectMemorySize}; when it is 0 (not set) the JDK defaults it to the max
 *       heap, and so it counts;</li>
 *   <li>metaspace: {@code -XX:MaxMetaspaceSize}; it has no limit by default, and then its committed size counts;</li>
 *   <li>code cache: {@code -XX:ReservedCodeCacheSize};</li>
 *   <li>thread stacks: the live threads times {@code -Xss} ({@code ThreadStackSize});</li>
 *   <li>offheap: the limits of offheap's root budgets when they have them, else what its pools hold now;</li>
 *   <li>malloc: no ceiling, so what it holds now, less the direct buffers' memory (malloc'd, and counted under
 *       their own ceiling above).</li>
 * </ul>
 *
 * @param items the parts, in the order above (offheap only when it holds memory or has a budget)
 * @param now the figures they were worked out from
 */
record Ceilings(List<Item> items, Usage now) {

    /**
     * The flags that set the ceilings (from {@code VM.flags -all}: {@link VmFlags#settings()}).
     *
     * @param maxHeapSize {@code MaxHeapSize} in bytes
     * @param maxDirectMemorySize {@code MaxDirectMemorySize}, 0 when not set
     * @param maxMetaspaceSize {@code MaxMetaspaceSize}, -1 for no limit (the default)
     * @param reservedCodeCacheSize {@code ReservedCodeCacheSize}
     * @param threadStackSize {@code ThreadStackSize} in bytes (HotSpot prints KiB); 0 means the system's default
     * @param origins each flag's origin by its name ({@code command line}, {@code default}, {@code ergonomic}),
     *     empty when unknown
     */
    record Settings(long maxHeapSize, long maxDirectMemorySize, long maxMetaspaceSize, long reservedCodeCacheSize,
            long threadStackSize, Map<String, String> origins) {
        Settings {
            origins = Map.copyOf(origins);
        }
    }

    /**
     * The JVM's figures now: resident or committed bytes (the lead's {@code Attribution} parts and buffer pools).
     *
     * @param heap the heap's resident bytes
     * @param directBuffers the direct buffers' memory ({@code BufferPoolMXBean} memory used), malloc'd; -1 when not
     *     read (without JMX)
     * @param metaspace metaspace's committed bytes
     * @param codeCache the code cache's resident bytes
     * @param threads live threads
     * @param threadStacks the thread stacks' resident bytes
     * @param malloc what glibc's malloc holds (direct buffers included), -1 when unknown
     * @param offheap what offheap's pools hold from the OS
     * @param offheapLimit the sum of offheap's root budgets' limits, -1 when there is none (or any is unlimited)
     */
    record Usage(long heap, long directBuffers, long metaspace, long codeCache, int threads, long threadStacks,
            long malloc, long offheap, long offheapLimit) {

        /** malloc less the direct buffers (when they were read), at least 0; -1 when malloc is unknown. */
        long mallocBeyondDirect() {
            return malloc < 0 ? -1 : Math.max(0, malloc - Math.max(0, directBuffers));
        }
    }

    /**
     * One part and its ceiling.
     *
     * @param key its JSON name: heap, directBuffers, metaspace, codeCache, threadStacks, offheap, malloc
     * @param label its name for people
     * @param bytes the ceiling, or the size now where there is none; 0 when unknown
     * @param source the flag (and its origin) or the figure it comes from
     * @param limit whether {@code bytes} is a configured ceiling (else a size now, which may grow)
     */
    record Item(String key, String label, long bytes, String source, boolean limit) {}

    static Ceilings of(Settings flags, Usage now) {
        List<Item> items = new ArrayList<>();
        items.add(new Item("heap", "heap", Math.max(0, flags.maxHeapSize()),
                "-Xmx (MaxHeapSize" + origin(flags, "MaxHeapSize") + ")", true));
        if (flags.maxDirectMemorySize() > 0) {
            items.add(new Item("directBuffers", "direct buffers", flags.maxDirectMemorySize(),
                    "-XX:MaxDirectMemorySize" + parenthesised(flags, "MaxDirectMemorySize"), true));
        } else {
            items.add(new Item("directBuffers", "direct buffers", Math.max(0, flags.maxHeapSize()),
                    "-XX:MaxDirectMemorySize not set, so the max heap (the JDK's default)", true));
        }
        if (flags.maxMetaspaceSize() >= 0) {
            items.add(new Item("metaspace", "metaspace", flags.maxMetaspaceSize(),
                    "-XX:MaxMetaspaceSize" + parenthesised(flags, "MaxMetaspaceSize"), true));
        } else {
            items.add(new Item("metaspace", "metaspace", now.metaspace(),
                    "committed now, as -XX:MaxMetaspaceSize sets no limit", false));
        }
        items.add(new Item("codeCache", "code cache", Math.max(0, flags.reservedCodeCacheSize()),
                "-XX:ReservedCodeCacheSize" + parenthesised(flags, "ReservedCodeCacheSize"), true));
        if (flags.threadStackSize() > 0) {
            items.add(new Item("threadStacks", "thread stacks", now.threads() * flags.threadStackSize(),
                    String.format(Locale.ROOT, "%d threads x %s, -Xss (ThreadStackSize%s)", now.threads(),
                            Bytes.human(flags.threadStackSize()), origin(flags, "ThreadStackSize")), true));
        } else {
            items.add(new Item("threadStacks", "thread stacks", now.threadStacks(), String.format(Locale.ROOT,
                    "resident now, as ThreadStackSize is %s (the system's default size)", flags.threadStackSize() == 0
                            ? "0" : "unknown"), false));
        }
        if (now.offheapLimit() >= 0) {
            items.add(new Item("offheap", "offheap", now.offheapLimit(), "the limits of offheap's root budgets", true));
        } else if (now.offheap() > 0) {
            items.add(new Item("offheap", "offheap", now.offheap(), "held now, as no offheap budget limits it", false));
        }
        if (now.malloc() >= 0) {
            items.add(new Item("malloc", "malloc", now.mallocBeyondDirect(), now.directBuffers() < 0
                    ? "held now, as malloc has no ceiling (the direct buffers inside it were not read without --jmx, so"
                    + " they count twice)" : "held now less the direct buffers' " + Bytes.human(now.directBuffers())
                    + ", as malloc has no ceiling", false));
        } else {
            items.add(new Item("malloc", "malloc", 0, "unknown (no malloc statistics), so not counted", false));
        }
        return new Ceilings(List.copyOf(items), now);
    }

    private static String origin(Settings flags, String flag) {
        String origin = flags.origins().get(flag);
        return origin == null ? "" : ", " + origin;
    }

    private static String parenthesised(Settings flags, String flag) {
        String origin = flags.origins().get(flag);
        return origin == null ? "" : " (" + origin + ")";
    }

    long sum() {
        return items.stream().mapToLong(Item::bytes).sum();
    }

    Item item(String key) {
        return items.stream().filter(i -> i.key().equals(key)).findFirst().orElse(null);
    }

    /**
     * The ceilings section of the table report: each part, its ceiling and source, and the sum against the
     * container's limit (none when {@code container} is null or has no limit).
     */
    List<String> tableLines(ContainerMemory container) {
        List<String> lines = new ArrayList<>();
        lines.add("JVM ceilings (or, where there is none, the size now)");
        for (Item i : items) {
            lines.add(String.format(Locale.ROOT, "  %-14s %11s  %s", i.label(), Bytes.human(i.bytes()), i.source()));
        }
        ContainerMemory.Figure limit = container == null ? null : container.limit();
        if (limit == null) {
            lines.add(String.format(Locale.ROOT, "  %-14s %11s  %s", "sum", Bytes.human(sum()),
                    "no container limit to set it against"));
        } else {
            long over = sum() - limit.value();
            lines.add(String.format(Locale.ROOT, "  %-14s %11s  %s the limit %s (%s)", "sum", Bytes.human(sum()),
                    over > 0 ? Bytes.human(over) + " above" : Bytes.human(-over) + " below", Bytes.human(limit.value()),
                    limit.source()));
        }
        return lines;
    }

    /** Writes the ceilings as one JSON object value: each part's bytes and source, and their sum. */
    void writeJson(Json json) {
        json.beginObject();
        json.key("items").beginArray();
        for (Item i : items) {
            json.beginObject().field("key", i.key()).field("bytes", i.bytes()).field("source", i.source())
                    .field("kind", i.limit() ? "limit" : "now").endObject();
        }
        json.endArray();
        json.field("sum", sum());
        json.endObject();
    }
}
