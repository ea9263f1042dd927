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

import java.util.List;
import java.util.regex.Pattern;

/**
 * Gives each mapping its {@link MappingKind}.
 *
 * <ul>
 *   <li>Java heap: inside the range {@code GC.heap_info} reports, or ZGC's {@code memfd:java_heap}.</li>
 *   <li>Code cache: inside a code heap's bounds ({@code Compiler.codecache}).</li>
 *   <li>malloc's arenas: {@code [heap]} (the main arena) and glibc's other arena heaps, anonymous mappings
 *       on a 64 MiB boundary whose read-write part and inaccessible rest reserve exactly 64 MiB.</li>
 *   <li>Thread stacks: {@code [stack]}, and every anonymous read-write mapping that starts right where an
 *       inaccessible anonymous mapping of less than 64 KiB ends: a stack sits on its guard pages (glibc's
 *       guard page, HotSpot's red/yellow/reserved zones). Metaspace's holes are 64 KiB granules or more; a
 *       glibc arena heap starts on a 64 MiB boundary and ends in its own inaccessible rest, which can be a
 *       few pages when the heap is nearly full, so a mapping on a 64 MiB boundary is never taken for a stack.
 *       Nor is one of less than 16 KiB: glibc refuses smaller stacks ({@code PTHREAD_STACK_MIN}), while G1's tables
 *       on JDK 17 have single committed pages above holes of a few pages. The rule also finds the stacks glibc
 *       keeps for new threads after theirs ended (a few resident pages each), which NMT no longer counts.</li>
 *   <li>Program files: shared libraries, jars, the JDK's {@code modules} image and CDS archive, locales, the
 *       JVM's perf data file.</li>
 *   <li>Other file-backed mappings are data files; memfd, {@code /dev/shm} and System V segments are shared
 *       memory.</li>
 * </ul>
 * The JVM's labelled regions and offheap's pools are not kinds: their addresses are known, so their pages
 * are counted as {@link OwnedRange}s wherever they fall.
 */
final class MappingClassifier {
    private static final long MAX_GUARD = 64 * 1024;
    private static final long MIN_STACK = 16 * 1024;
    private static final long ARENA_HEAP_ALIGNMENT = 64L << 20;
    static final Pattern SHARED_LIBRARY = Pattern.compile("\\.so(\\.[0-9.]+)?( \\(deleted\\))?$");

    private final List<AddressRange> heap;
    private final List<AddressRange> code;
    private final String javaHome;

    MappingClassifier(List<AddressRange> heap, List<AddressRange> code, String javaHome) {
        this.heap = heap;
        this.code = code;
        this.javaHome = javaHome == null || javaHome.isEmpty() ? null : javaHome + "/";
    }

    /** The kind of {@code mappings.get(i)}; its predecessor tells whether it is a stack. */
    MappingKind kind(List<Mapping> mappings, int i) {
        Mapping m = mappings.get(i);
        String path = m.path();
        if (heap.stream().anyMatch(r -> r.contains(m)) || path.startsWith("/memfd:java_heap")) {
            return MappingKind.JAVA_HEAP;
        }
        if (code.stream().anyMatch(r -> r.contains(m))) {
            return MappingKind.CODE_CACHE;
        }
        if (path.equals("[heap]")) {
            return MappingKind.NATIVE_HEAP;
        }
        if (path.equals("[stack]") || path.startsWith("[stack:")) {
            return MappingKind.THREAD_STACK;
        }
        if (path.equals("[vdso]") || path.equals("[vvar]") || path.equals("[vsyscall]") || path.equals("[vvar_vclock]")) {
            return MappingKind.KERNEL;
        }
        if (path.startsWith("/memfd:") || path.startsWith("/dev/shm/") || path.startsWith("/SYSV")
                || path.startsWith("/dev/zero") || path.startsWith("[anon_shmem")) {
            return MappingKind.SHARED_MEMORY;
        }
        if (m.isAnonymous() && isArenaHeap(mappings, i)) {
            return MappingKind.MALLOC_ARENA;
        }
        if (m.isAnonymous()) {
            return isStack(mappings, i) ? MappingKind.THREAD_STACK : MappingKind.ANONYMOUS;
        }
        return isProgramFile(path) ? MappingKind.PROGRAM_FILE : MappingKind.DATA_FILE;
    }

    /**
     * glibc arena heaps: read-write, starting on a 64 MiB boundary, and ending with their inaccessible rest
     * on one. The kernel merges neighbouring heaps into one mapping, so it may span several.
     */
    private static boolean isArenaHeap(List<Mapping> mappings, int i) {
        Mapping m = mappings.get(i);
        if (!m.permissions().startsWith("rw") || m.isSharedMapping() || m.start() % ARENA_HEAP_ALIGNMENT != 0) {
            return false;
        }
        if (m.end() % ARENA_HEAP_ALIGNMENT == 0) {
            return true;
        }
        if (i + 1 >= mappings.size()) {
            return false;
        }
        Mapping rest = mappings.get(i + 1);
        return rest.start() == m.end() && rest.isAnonymous() && rest.isInaccessible()
                && rest.end() % ARENA_HEAP_ALIGNMENT == 0;
    }

    private static boolean isStack(List<Mapping> mappings, int i) {
        Mapping m = mappings.get(i);
        if (i == 0 || !m.permissions().startsWith("rw") || m.isSharedMapping() || m.start() % ARENA_HEAP_ALIGNMENT == 0
                || m.size() < MIN_STACK) {
            return false;
        }
        Mapping below = mappings.get(i - 1);
        return below.end() == m.start() && below.isAnonymous() && below.isInaccessible() && below.size() < MAX_GUARD;
    }

    private boolean isProgramFile(String path) {
        return SHARED_LIBRARY.matcher(path).find() || path.endsWith(".jar") || path.endsWith(".jsa") || path.endsWith("/lib/modules")
                || path.startsWith("/usr/lib/locale/") || path.contains("/hsperfdata_") || (javaHome != null && path.startsWith(javaHome));
    }
}
