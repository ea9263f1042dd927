package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

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
                AddressRange.findAll(" bounds [0x00007f1000000000, 0x00007f1000080000, 0x00007f1000400000]"),
                VmMap.EMPTY, "/usr/lib/jvm/jdk");

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
}
