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

package dev.offheap.accuracy.workload;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * jemalloc's statistics through {@code mallctl}, when jemalloc is preloaded (compiled with release 22, loaded
 * only on JDK 22+). {@code stats.resident} is jemalloc's bound on the resident pages it maps (its manual:
 * a maximum, pages it never touched count too); {@code stats.mapped} what it has mapped in active extents;
 * {@code stats.retained} virtual memory kept but returned to the OS.
 */
public final class Jemalloc {
    private Jemalloc() {}

    public static Map<String, Long> stats() throws Throwable {
        Map<String, Long> stats = new LinkedHashMap<>();
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup lib = SymbolLookup.libraryLookup("libjemalloc.so.2", arena);
            MethodHandle mallctl = Linker.nativeLinker().downcallHandle(lib.find("mallctl").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG));
            MemorySegment value = arena.allocate(JAVA_LONG);
            MemorySegment length = arena.allocate(JAVA_LONG);
            // statistics are cached until the epoch advances
            value.set(JAVA_LONG, 0, 1);
            length.set(JAVA_LONG, 0, 8);
            int rc = (int) mallctl.invokeExact(arena.allocateFrom("epoch"), value, length, value, 8L);
            if (rc != 0) {
                return Map.of("jemalloc.epochError", (long) rc);
            }
            for (String name : new String[] {"stats.allocated", "stats.active", "stats.metadata", "stats.resident",
                "stats.mapped", "stats.retained"}) {
                length.set(JAVA_LONG, 0, 8);
                rc = (int) mallctl.invokeExact(arena.allocateFrom(name), value, length, MemorySegment.NULL, 0L);
                stats.put("jemalloc." + name.substring("stats.".length()), rc == 0 ? value.get(JAVA_LONG, 0) : -1);
            }
        }
        return stats;
    }
}
