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

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Takes a {@link MemorySample} of this process: {@code /proc/self/status}, the platform MXBeans (found once) and
 * the memory cgroup. Nothing here walks the process's mappings: a sample reads three or four small files and asks
 * the JVM for counters it keeps anyway, so that sampling every few seconds costs a few hundred microseconds of
 * CPU and no safepoint.
 */
final class SelfSampler {
    private final Path status;
    private final Cgroup cgroup;
    private final long limitOverride;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<MemoryPoolMXBean> metaspace = new ArrayList<>();
    private final List<MemoryPoolMXBean> codeCache = new ArrayList<>();
    private final BufferPoolMXBean direct;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final HeapResidency heap;

    SelfSampler(Path procSelf, Path cgroupFs, long limitOverride) {
        this.status = procSelf.resolve("status");
        this.cgroup = Cgroup.locate(procSelf.resolve("cgroup"), cgroupFs);
        this.limitOverride = limitOverride;
        this.heap = new HeapResidency(procSelf, Ceilings.maxHeapSize());
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.NON_HEAP && pool.getName().equals("Metaspace")) {
                metaspace.add(pool);
            } else if (pool.getType() == MemoryType.NON_HEAP && (pool.getName().startsWith("CodeHeap")
                    || pool.getName().equals("Code Cache"))) {
                codeCache.add(pool);
            }
        }
        BufferPoolMXBean found = null;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                found = pool;
            }
        }
        this.direct = found;
    }

    /** Linux's files, or none elsewhere. */
    static SelfSampler ofThisProcess(long limitOverride) {
        return new SelfSampler(Path.of("/proc/self"), Path.of("/sys/fs/cgroup"), limitOverride);
    }

    /** @return whether the heap's resident bytes are counted from its pages (not its committed size) */
    boolean heapCounted() {
        return heap.exact();
    }

    /** @return where the cgroup's figures come from, or null without one */
    Path cgroupDirectory() {
        return cgroup == null ? null : cgroup.directory();
    }

    MemorySample sample() {
        Map<String, Long> s = readStatus();
        MemoryUsage heapUsage = memory.getHeapMemoryUsage();
        long usage = cgroup == null ? MemorySample.UNKNOWN : cgroup.usage();
        long workingSet = cgroup == null ? MemorySample.UNKNOWN : cgroup.workingSet(usage);
        long cgroupLimit = cgroup == null ? MemorySample.UNKNOWN : cgroup.limit();
        long limit = limitOverride > 0 ? limitOverride : cgroupLimit;
        if (limitOverride > 0 && cgroupLimit <= 0) {
            // a limit= for a JVM no cgroup bounds: the thresholds are shares of its own RSS
            workingSet = s.getOrDefault("VmRSS", MemorySample.UNKNOWN);
        }
        return new MemorySample(Instant.now(), s.getOrDefault("VmRSS", MemorySample.UNKNOWN),
                s.getOrDefault("RssAnon", MemorySample.UNKNOWN), s.getOrDefault("RssFile", MemorySample.UNKNOWN),
                s.getOrDefault("RssShmem", MemorySample.UNKNOWN), s.getOrDefault("VmSwap", MemorySample.UNKNOWN),
                heapUsage.getCommitted(), heap.resident(heapUsage.getCommitted()), heapUsage.getUsed(), committed(metaspace),
                committed(codeCache), direct == null ? 0 : direct.getMemoryUsed(), threads.getThreadCount(), usage,
                workingSet, limit);
    }

    private Map<String, Long> readStatus() {
        try {
            return ProcStatus.parse(new String(Files.readAllBytes(status), java.nio.charset.StandardCharsets.US_ASCII));
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    private static long committed(List<MemoryPoolMXBean> pools) {
        long sum = 0;
        for (MemoryPoolMXBean p : pools) {
            sum += p.getUsage().getCommitted();
        }
        return sum;
    }
}
