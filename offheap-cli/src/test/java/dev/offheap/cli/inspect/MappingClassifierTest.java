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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Kinds from /proc/PID/smaps text: heap range, code bounds, stacks on guard pages, files. */
class MappingClassifierTest {
    private static final String SMAPS = """
            c0000000-c8000000 rw-p 00000000 00:00 0
            Rss:               131072 kB
            Anonymous:         131072 kB
            7f0000000000-7f0000004000 ---p 00000000 00:00 0
            Rss:                    0 kB
            7f0000004000-7f0000100000 rw-p 00000000 00:00 0
            Rss:                   96 kB
            Anonymous:             96 kB
            7f0001000000-7f0001100000 rw-p 00000000 00:00 0
            Rss:                 1024 kB
            Anonymous:           1024 kB
            7f0001100000-7f0005000000 ---p 00000000 00:00 0
            Rss:                    0 kB
            7f0007ffc000-7f0008000000 ---p 00000000 00:00 0
            Rss:                    0 kB
            7f0008000000-7f0008100000 rw-p 00000000 00:00 0
            Rss:                  256 kB
            Anonymous:            256 kB
            7f1000000000-7f1000100000 rwxp 00000000 00:00 0
            Rss:                  512 kB
            Anonymous:            512 kB
            7f2000000000-7f2000200000 r--s 00000000 08:01 42     /data/prices.npy
            Rss:                 2048 kB
            Shared_Clean:        2048 kB
            7f3000000000-7f3000100000 r-xp 00000000 08:01 43     /usr/lib/jvm/jdk/lib/server/libjvm.so
            Rss:                 1024 kB
            Shared_Clean:        1024 kB
            """;

    @Test
    void classifiesByRangeLayoutAndPath() {
        List<Mapping> mappings = Smaps.parse(SMAPS);
        MappingClassifier classifier = new MappingClassifier(AddressRange.span("[0x00000000c0000000, 0x0000000100000000)"),
                AddressRange.findAll(" bounds [0x00007f1000000000, 0x00007f1000080000, 0x00007f1000400000]"), "/usr/lib/jvm/jdk");

        assertThat(mappings).hasSize(10);
        assertThat(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9).stream().map(i -> classifier.kind(mappings, i))).containsExactly(
                MappingKind.JAVA_HEAP, MappingKind.ANONYMOUS, MappingKind.THREAD_STACK, MappingKind.ANONYMOUS,
                MappingKind.ANONYMOUS, MappingKind.ANONYMOUS,
                MappingKind.ANONYMOUS, // a nearly full malloc arena heap: on a 64 MiB boundary, not a stack
                MappingKind.CODE_CACHE, MappingKind.DATA_FILE, MappingKind.PROGRAM_FILE);

        ProcessMemory memory = ProcessMemory.of(mappings, classifier);
        assertThat(memory.rss()).isEqualTo((131072L + 96 + 1024 + 256 + 512 + 2048 + 1024) * 1024);
        assertThat(memory.of(MappingKind.THREAD_STACK)).isEqualTo(96 * 1024);
        assertThat(memory.sharedWithOthers()).isEqualTo((2048L + 1024) * 1024);
    }

    private static final long KIB = 1024;
    private static final long HEAP_START = 0xc0000000L;
    private static final long HEAP_END = 0x100000000L;
    private static final long CODE_START = 0x7f1000000000L;
    private static final long CODE_END = 0x7f1000400000L;

    /** Heap [0xc0000000, 0x100000000), one code heap, no labels, the JDK in /opt/jdk. */
    private static final MappingClassifier PLAIN = new MappingClassifier(
            List.of(new AddressRange(HEAP_START, HEAP_END)), List.of(new AddressRange(CODE_START, CODE_END)), "/opt/jdk");

    @Test
    void theHeapIsEveryMappingInsideItsRangeAndZgcsMemfd() {
        assertThat(kind(PLAIN, anon(HEAP_START, HEAP_END))).isEqualTo(MappingKind.JAVA_HEAP);
        assertThat(kind(PLAIN, anon(HEAP_START + 0x1000, HEAP_START + 0x2000))).isEqualTo(MappingKind.JAVA_HEAP);
        assertThat(kind(PLAIN, anon(HEAP_START - 0x1000, HEAP_START + 0x1000))).isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(HEAP_END - 0x1000, HEAP_END + 0x1000))).isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, file(0x7f5000000000L, "rw-s", "/memfd:java_heap (deleted)"))).isEqualTo(MappingKind.JAVA_HEAP);
    }

    @Test
    void theCodeCacheIsEveryMappingInsideACodeHeap() {
        assertThat(kind(PLAIN, new Mapping(CODE_START, CODE_END, "rwxp", "", 0, 0, 0))).isEqualTo(MappingKind.CODE_CACHE);
        assertThat(kind(PLAIN, new Mapping(CODE_END - 0x1000, CODE_END + 0x1000, "rwxp", "", 0, 0, 0)))
                .isEqualTo(MappingKind.ANONYMOUS);
    }

    @Test
    void pseudoPathsNameTheBrkHeapTheMainStackAndTheKernelsPages() {
        assertThat(kind(PLAIN, file(0x5585ed68e000L, "rw-p", "[heap]"))).isEqualTo(MappingKind.NATIVE_HEAP);
        assertThat(kind(PLAIN, file(0x7ffc4fb16000L, "rw-p", "[stack]"))).isEqualTo(MappingKind.THREAD_STACK);
        assertThat(kind(PLAIN, file(0x7ffc4fb16000L, "rw-p", "[stack:1234]"))).isEqualTo(MappingKind.THREAD_STACK);
        for (String kernel : List.of("[vdso]", "[vvar]", "[vsyscall]", "[vvar_vclock]")) {
            assertThat(kind(PLAIN, file(0x7ffc4fb80000L, "r--p", kernel))).as(kernel).isEqualTo(MappingKind.KERNEL);
        }
    }

    @Test
    void memfdShmSystemVAndSharedAnonymousMemoryAreSharedMemory() {
        for (String path : List.of("/memfd:offheap-ring (deleted)", "/dev/shm/ring", "/SYSV00000000 (deleted)",
                "/dev/zero (deleted)", "[anon_shmem:ring]")) {
            assertThat(kind(PLAIN, file(0x7f6000000000L, "rw-s", path))).as(path).isEqualTo(MappingKind.SHARED_MEMORY);
        }
    }

    @Test
    void librariesJarsTheJdksFilesLocalesAndPerfDataAreProgramFiles() {
        for (String path : List.of("/usr/lib/x86_64-linux-gnu/libc.so.6", "/opt/app/libfoo.so",
                "/opt/app/libbar.so.1.2.3", "/tmp/libnative123.so (deleted)", "/app/app.jar", "/var/cache/app.jsa",
                "/other/jdk/lib/modules", "/usr/lib/locale/C.utf8/LC_CTYPE", "/tmp/hsperfdata_me/1234",
                "/opt/jdk/lib/tzdb.dat")) {
            assertThat(kind(PLAIN, file(0x7f3000000000L, "r--p", path))).as(path).isEqualTo(MappingKind.PROGRAM_FILE);
        }
    }

    @Test
    void otherFilesAreDataFiles() {
        for (String path : List.of("/data/prices.npy", "/opt/jdk-other/lib/tzdb.dat", "/data/x.so.bak",
                "/data/modules", "/data/app.jar.tmp", "/data/spill (deleted)")) {
            assertThat(kind(PLAIN, file(0x7f3000000000L, "rw-s", path))).as(path).isEqualTo(MappingKind.DATA_FILE);
        }
    }

    @Test
    void withoutItsJavaHomeTheJdksOwnFilesAreDataFiles() {
        MappingClassifier noHome = new MappingClassifier(List.of(), List.of(), "");
        MappingClassifier nullHome = new MappingClassifier(List.of(), List.of(), null);

        assertThat(kind(noHome, file(0x7f3000000000L, "r--p", "/opt/jdk/lib/tzdb.dat"))).isEqualTo(MappingKind.DATA_FILE);
        assertThat(kind(nullHome, file(0x7f3000000000L, "r--p", "/opt/jdk/lib/tzdb.dat"))).isEqualTo(MappingKind.DATA_FILE);
        assertThat(kind(nullHome, file(0x7f3000000000L, "r--p", "/opt/jdk/lib/libjava.so"))).isEqualTo(MappingKind.PROGRAM_FILE);
    }

    /** A stack: read-write, anonymous, private, right on an inaccessible anonymous guard of less than 64 KiB. */
    @Test
    void aStackSitsOnItsGuardPages() {
        long guard = 0x7f0000000000L;
        long stack = guard + 60 * KIB;
        Mapping onGuard = anon(stack, stack + 1024 * KIB);

        assertThat(kind(PLAIN, anon(guard, stack, "---p"), onGuard)).isEqualTo(MappingKind.THREAD_STACK);
        assertThat(kind(PLAIN, anon(guard, stack, "---p"), anon(stack, stack + 1024 * KIB, "rwxp")))
                .as("executable stack").isEqualTo(MappingKind.THREAD_STACK);
        assertThat(kind(PLAIN, anon(guard, stack, "---p"), new Mapping(stack, stack + 1024 * KIB, "rw-p",
                "[anon:stack]", 0, 0, 0))).as("named anonymous").isEqualTo(MappingKind.THREAD_STACK);
    }

    @Test
    void withoutSuchAGuardAnAnonymousMappingIsJustAnonymous() {
        long guard = 0x7f0000000000L;
        long stack = guard + 60 * KIB;
        Mapping onGuard = anon(stack, stack + 1024 * KIB);

        assertThat(kind(PLAIN, onGuard)).as("first mapping").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(guard, stack, "---p"), anon(stack, stack + 1024 * KIB, "r--p")))
                .as("read-only").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(guard, stack, "---p"), anon(stack, stack + 1024 * KIB, "rw-s")))
                .as("shared").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(guard, stack - 4 * KIB, "---p"), onGuard)).as("a gap below").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(guard, stack, "r--p"), onGuard)).as("accessible below").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, new Mapping(guard, stack, "---p", "/data/x", 0, 0, 0), onGuard))
                .as("a file below").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(stack - 64 * KIB, stack, "---p"), onGuard)).as("64 KiB below")
                .isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(PLAIN, anon(stack - 64 * KIB + 4 * KIB, stack, "---p"), onGuard)).as("60 KiB below")
                .isEqualTo(MappingKind.THREAD_STACK);
        long arena = 0x7f0004000000L; // 64 MiB aligned: a malloc arena heap, whatever lies below
        assertThat(kind(PLAIN, anon(arena - 4 * KIB, arena, "---p"), anon(arena, arena + 1024 * KIB)))
                .as("on a 64 MiB boundary").isEqualTo(MappingKind.ANONYMOUS);
    }

    @Test
    void withNmtTheJvmsLabelsBecomeRangesOfTheirParts() {
        VmMap labels = VmMap.parse("""
                0x0000000000010000-0x0000000000020000 1 rw-p 1 0 4K com JAVAHEAP -
                0x0000000000020000-0x0000000000030000 1 rwxp 1 0 4K com CODE -
                0x0000000000030000-0x0000000000040000 1 rw-p 1 0 4K com STACK-12-main -
                0x0000000000040000-0x0000000000050000 1 rw-p 1 0 4K com META -
                0x0000000000050000-0x0000000000060000 1 rw-p 1 0 4K com CLASS -
                0x0000000000060000-0x0000000000070000 1 rw-p 1 0 4K com CDS -
                0x0000000000080000-0x0000000000090000 1 rw-p 1 0 4K com GC -
                0x0000000000090000-0x00000000000a0000 1 rw-p 1 0 4K com CARDTBL -
                0x00000000000a0000-0x00000000000b0000 1 rw-p 1 0 4K com INTERN -
                """);

        assertThat(labels.ranges()).extracting(OwnedRange::start, OwnedRange::part, OwnedRange::owner,
                OwnedRange::anonymousOnly).containsExactly(
                tuple(0x10000L, "heap", "JAVAHEAP", true), tuple(0x20000L, "codeCache", "CODE", true),
                tuple(0x30000L, "threadStacks", "STACK", true), tuple(0x40000L, "metaspace", "META", true),
                tuple(0x50000L, "metaspace", "CLASS", true), tuple(0x60000L, "metaspace", "CDS", true),
                tuple(0x80000L, "gc", "GC", true), tuple(0x90000L, "gc", "CARDTBL", true),
                tuple(0xa0000L, "otherJvm", "INTERN", true));
    }

    @Test
    void glibcArenaHeapsAreRecognisedByTheir64MiBLayout() {
        long arena = 0x7f0004000000L;
        long heapMax = 64 * 1024 * KIB;
        Mapping used = anon(arena, arena + 1024 * KIB);
        Mapping rest = anon(arena + 1024 * KIB, arena + heapMax, "---p");

        assertThat(PLAIN.kind(List.of(used, rest), 0)).as("read-write part and its rest").isEqualTo(MappingKind.MALLOC_ARENA);
        assertThat(kind(PLAIN, anon(arena, arena + heapMax))).as("a full arena heap").isEqualTo(MappingKind.MALLOC_ARENA);
        assertThat(PLAIN.kind(List.of(used, anon(arena + 1024 * KIB, arena + heapMax - 4 * KIB, "---p")), 0))
                .as("its rest ends off the boundary").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(PLAIN.kind(List.of(anon(arena + 4 * KIB, arena + 1024 * KIB), rest), 0))
                .as("off the boundary").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(PLAIN.kind(List.of(used), 0)).as("nothing after it").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(PLAIN.kind(List.of(used, anon(arena + 2048 * KIB, arena + heapMax, "---p")), 0))
                .as("a gap before the rest").isEqualTo(MappingKind.ANONYMOUS);
        assertThat(PLAIN.kind(List.of(anon(arena, arena + 1024 * KIB, "rw-s"), rest), 0)).as("shared")
                .isEqualTo(MappingKind.ANONYMOUS);
    }

    /** The kind of the last mapping, the others lying below it. */
    private static MappingKind kind(MappingClassifier classifier, Mapping... mappings) {
        return classifier.kind(List.of(mappings), mappings.length - 1);
    }

    private static Mapping anon(long start, long end) {
        return anon(start, end, "rw-p");
    }

    private static Mapping anon(long start, long end, String permissions) {
        return new Mapping(start, end, permissions, "", 0, 0, 0);
    }

    private static Mapping file(long start, String permissions, String path) {
        return new Mapping(start, start + 0x1000, permissions, path, 0, 0, 0);
    }
}
