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

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's configured ceilings, read once from its flags: the heap ({@code MaxHeapSize}), direct buffers
 * ({@code MaxDirectMemorySize}, the heap's maximum when 0), the code cache ({@code ReservedCodeCacheSize}) and
 * metaspace when {@code MaxMetaspaceSize} bounds it. Their sum is what the JVM may take before the native memory
 * nothing bounds (thread stacks, malloc).
 */
record Ceilings(List<Item> items) {
    /** One ceiling: its key, bytes and the flag it comes from. */
    record Item(String key, long bytes, String source) {}

    long sum() {
        long s = 0;
        for (Item i : items) {
            s += i.bytes();
        }
        return s;
    }

    static Ceilings read() {
        List<Item> items = new ArrayList<>();
        long heap = maxHeapSize();
        items.add(new Item("heap", heap, "MaxHeapSize"));
        HotSpotDiagnosticMXBean flags = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        long direct = flag(flags, "MaxDirectMemorySize");
        items.add(new Item("direct", direct > 0 ? direct : heap, direct > 0 ? "MaxDirectMemorySize" : "MaxHeapSize (MaxDirectMemorySize not set)"));
        long code = flag(flags, "ReservedCodeCacheSize");
        if (code > 0) {
            items.add(new Item("codeCache", code, "ReservedCodeCacheSize"));
        }
        long meta = flag(flags, "MaxMetaspaceSize");
        if (meta > 0 && meta < (1L << 50)) {
            items.add(new Item("metaspace", meta, "MaxMetaspaceSize"));
        }
        return new Ceilings(List.copyOf(items));
    }

    /** @return the heap's reserved size, {@code MaxHeapSize} (above {@code Runtime.maxMemory()} for some collectors) */
    static long maxHeapSize() {
        long flag = flag(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class), "MaxHeapSize");
        return flag > 0 ? flag : Runtime.getRuntime().maxMemory();
    }

    private static long flag(HotSpotDiagnosticMXBean flags, String name) {
        if (flags == null) {
            return -1;
        }
        try {
            return Long.parseUnsignedLong(flags.getVMOption(name).getValue());
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
