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

package dev.offheap.recorder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One sample of a process's memory, as the recorder reads it from inside: the kernel's resident figures
 * ({@code /proc/self/status}), the JVM's own (committed heap, metaspace and code cache, direct buffers), and the
 * memory cgroup's. A figure that could not be read is {@link #UNKNOWN}.
 *
 * @param time when the sample was taken
 * @param rss resident bytes ({@code VmRSS})
 * @param anonymous resident anonymous bytes ({@code RssAnon}): the heap, the JVM's native memory, malloc
 * @param fileBacked resident bytes of files ({@code RssFile}): the program's libraries and mapped files
 * @param sharedMemory resident shared memory ({@code RssShmem})
 * @param swap swapped-out bytes ({@code VmSwap})
 * @param heapCommitted the heap's committed bytes
 * @param heapResident the heap's resident bytes: its pages present in {@code /proc/self/pagemap}, or its committed
 *        bytes where they cannot be counted
 * @param heapUsed the heap's used bytes
 * @param metaspace metaspace's committed bytes, class space included
 * @param codeCache the code cache's committed bytes
 * @param direct the JDK's direct buffer memory (in malloc)
 * @param threads live threads
 * @param containerUsage the memory cgroup's usage
 * @param containerWorkingSet its usage less inactive file pages, as Kubernetes counts it; the process's RSS when
 *        {@code limit=} sets a limit no cgroup has
 * @param containerLimit the smallest limit over the cgroup's hierarchy, or the one set by {@code limit=}
 */
public record MemorySample(Instant time, long rss, long anonymous, long fileBacked, long sharedMemory, long swap,
        long heapCommitted, long heapResident, long heapUsed, long metaspace, long codeCache, long direct, int threads, long containerUsage,
        long containerWorkingSet, long containerLimit) {
    /** A figure that could not be read. */
    public static final long UNKNOWN = -1;

    /**
     * A part of resident memory.
     *
     * @param key the part's name, as {@code offheap inspect --json} names parts where they mean the same
     * @param bytes resident bytes
     * @param source where the figure comes from, in words
     */
    public record Part(String key, long bytes, String source) {}

    /**
     * Resident memory by owner: the heap's resident pages, then the JVM's committed figures taken out of anonymous
     * memory in turn (each at most what is left), the rest of it as {@code native};
     * then file-backed and shared memory. Their sum is {@link #rss()}. Without {@code /proc} (not Linux), the JVM's
     * figures alone.
     *
     * @return the parts, in a fixed order
     */
    public List<Part> parts() {
        List<Part> parts = new ArrayList<>(7);
        long left = anonymous == UNKNOWN ? Long.MAX_VALUE : anonymous;
        long heap = Math.min(heapResident, left);
        left -= heap;
        long meta = Math.min(metaspace, left);
        left -= meta;
        long code = Math.min(codeCache, left);
        left -= code;
        long buffers = Math.min(direct, left);
        left -= buffers;
        parts.add(new Part("heap", heap, "the heap's resident pages (its range in /proc/self/pagemap; its committed bytes where not found)"));
        parts.add(new Part("metaspace", meta, "Metaspace's committed bytes (MemoryPoolMXBean), class space included"));
        parts.add(new Part("codeCache", code, "the code heaps' committed bytes (MemoryPoolMXBean)"));
        parts.add(new Part("direct", buffers, "the JDK's direct buffers (BufferPoolMXBean direct), in malloc"));
        if (anonymous != UNKNOWN) {
            parts.add(new Part("native", left, "the rest of the anonymous RSS: thread stacks, GC structures, malloc of the"
                    + " JVM, the JDK and native libraries, offheap's pools"));
            parts.add(new Part("files", Math.max(0, fileBacked), "resident pages of files (RssFile): libraries, the JDK's"
                    + " modules, mapped files"));
            parts.add(new Part("sharedMemory", Math.max(0, sharedMemory), "resident shared memory (RssShmem)"));
        }
        return parts;
    }

    /**
     * The share of the limit the working set takes.
     *
     * @return the container's working set over its limit, or -1 when either is not known
     */
    public double containerShare() {
        return containerLimit > 0 && containerWorkingSet >= 0 ? (double) containerWorkingSet / containerLimit : -1;
    }
}
