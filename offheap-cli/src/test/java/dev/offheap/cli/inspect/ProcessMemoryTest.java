package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Owned ranges carved out of smaps' mappings: exact where a range covers a mapping, page counts where it does not. */
class ProcessMemoryTest {
    private static final long KIB = 1024;
    private static final long MIB = KIB * KIB;
    private static final MappingClassifier CLASSIFIER = new MappingClassifier(List.of(), List.of(), "/opt/jdk");

    @Test
    void aRangeCoveringAMappingTakesItsRssAndOnePartlyInsideCountsItsPages() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x200000, MIB), anon(0x200000, 0x600000, 3 * MIB));
        List<long[]> asked = new ArrayList<>();

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER,
                List.of(new OwnedRange(0x100000, 0x300000, "offheap", "BufferPool/http", false)),
                (start, end) -> {
                    asked.add(new long[] {start, end});
                    return 256 * KIB;
                });

        assertThat(memory.owned("offheap")).isEqualTo(MIB + 256 * KIB);
        assertThat(memory.byOwner()).containsEntry("BufferPool/http", MIB + 256 * KIB);
        assertThat(memory.of(MappingKind.ANONYMOUS)).isEqualTo(3 * MIB - 256 * KIB);
        assertThat(asked).containsExactly(new long[] {0x200000, 0x300000});
        assertThat(memory.rss()).isEqualTo(4 * MIB);
    }

    /** The kernel merged a pool's mapping with a labelled neighbour: System.map labels the whole mapping. */
    @Test
    void aPoolsOwnAddressesWinOverALabelThatNamesTheWholeMapping() {
        List<Mapping> mappings = List.of(anon(0x100000, 0x500000, 4 * MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER, List.of(
                new OwnedRange(0x100000, 0x500000, "gc", "GC", true),
                new OwnedRange(0x200000, 0x400000, "offheap", "BufferPool/http", false)),
                (start, end) -> end - start);

        assertThat(memory.owned("offheap")).isEqualTo(2 * MIB);
        assertThat(memory.owned("gc")).isEqualTo(2 * MIB);
    }

    @Test
    void aLabelCountsOnlyAnonymousMappingsAndNeverMoreThanTheMappingHolds() {
        List<Mapping> mappings = List.of(new Mapping(0x100000, 0x200000, "r--p", "/opt/jdk/lib/server/classes.jsa",
                MIB, 0, 0), anon(0x200000, 0x400000, MIB));

        ProcessMemory memory = ProcessMemory.of(mappings, CLASSIFIER,
                List.of(new OwnedRange(0x100000, 0x300000, "metaspace", "CDS", true),
                        new OwnedRange(0x300000, 0x400000, "metaspace", "META", true)),
                (start, end) -> MIB);

        assertThat(memory.owned("metaspace")).isEqualTo(MIB);
        assertThat(memory.of(MappingKind.PROGRAM_FILE)).isEqualTo(MIB);
        assertThat(memory.of(MappingKind.ANONYMOUS)).isZero();
    }

    private static Mapping anon(long start, long end, long rss) {
        return new Mapping(start, end, "rw-p", "", rss, rss, 0);
    }
}
