package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.cli.inspect.Attribution.Part;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Shared memory (memfd, /dev/shm) is native memory like malloc's heap and anonymous mappings: its resident bytes
 * join the native pool that metaspace, offheap's pools and malloc claim from, so a claim it covers is not capped.
 */
class SharedMemoryJoinsTheNativePoolTest {
    private static final long MIB = 1L << 20;

    /** Heap 512 MiB and code cache 12 MiB committed (both have their ranges below), metaspace 30 MiB. */
    private static final JvmAreas JVM = new JvmAreas("VM", 4, "/opt/jdk", 200 * MIB, 512 * MIB, 1024 * MIB,
            30 * MIB, 28 * MIB, 12 * MIB, 20, 0, "off");

    /** Held 30 + 6 MiB, top chunks 2 MiB: malloc claims 34 MiB. */
    private static final MallocInfo MALLOC = new MallocInfo(2, 30 * MIB, 5 * MIB, 6 * MIB, 2, MIB, 2 * MIB);

    /** One pool takes 48 MiB from the OS. */
    private static final Optional<List<OffheapBean>> OFFHEAP = Optional.of(List.of(
            new OffheapBean("BufferPool", "http", Map.of("BytesFromOs", 48 * MIB), null)));

    @Test
    void sharedMemoryIsHandedOutWithMallocsHeapAndAnonymousMappings() {
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, 0L);
        }
        byKind.put(MappingKind.JAVA_HEAP, 300 * MIB);
        byKind.put(MappingKind.CODE_CACHE, 10 * MIB);
        byKind.put(MappingKind.NATIVE_HEAP, 8 * MIB);
        byKind.put(MappingKind.ANONYMOUS, 16 * MIB);
        byKind.put(MappingKind.SHARED_MEMORY, 40 * MIB);
        ProcessMemory memory = new ProcessMemory(374 * MIB, 0, 0, 0, 0, byKind, 1, null);
        NativeReports reports = new NativeReports(List.of(), List.of(), null, VmMap.EMPTY, MALLOC, null);

        Attribution a = Attribution.of(memory, JVM, reports, OFFHEAP);

        // native pool 8 + 16 + 40 = 64 MiB: metaspace 30, offheap the 34 left of its 48, malloc nothing of its 34
        assertThat(a.parts()).containsExactly(
                new Part("heap", "Java heap", 300 * MIB, 300 * MIB, "smaps in the heap's range"),
                new Part("codeCache", "code cache", 10 * MIB, 10 * MIB, "smaps in the code heaps"),
                new Part("programFiles", "program files", 0, 0, "smaps, libraries and jars"),
                new Part("mapped", "mapped files", 0, 0, "smaps, other files"),
                new Part("threadStacks", "thread stacks", 0, 0, "smaps, guard-page layout"),
                new Part("metaspace", "metaspace", 30 * MIB, 30 * MIB, "metaspace committed"),
                new Part("offheap", "offheap pools", 34 * MIB, 48 * MIB, "dev.offheap MBeans BytesFromOs"),
                new Part("malloc", "malloc (glibc)", 0, 34 * MIB, "malloc_info, held less top chunks"));
        assertThat(a.unexplained()).isZero();
    }
}
