package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code VM.native_memory summary} as JDK 25 prints it. */
class NmtSummaryTest {
    private static final String SUMMARY = """
            1978:

            Native Memory Tracking:

            Total: reserved=7751791KB, committed=494291KB
                   malloc: 27899KB #48949, peak=44961KB #49160
                   mmap:   reserved=7723892KB, committed=466392KB

            -                 Java Heap (reserved=6172672KB, committed=393216KB)
                                        (mmap: reserved=6172672KB, committed=393216KB, at peak)

            -                     Class (reserved=1048789KB, committed=1557KB)
                                        (classes #2999)
                                        (malloc=213KB tag=Class #5066) (at peak)
                                        (mmap: reserved=1048576KB, committed=1344KB, at peak)
                                        (  Metadata:   )
                                        (    reserved=65536KB, committed=8768KB)

            -                    Thread (reserved=19518KB, committed=974KB)
                                        (threads #19)
                                        (stack: reserved=19456KB, committed=912KB, peak=912KB)
                                        (malloc=42KB tag=Thread #115) (peak=50KB #119)
                                        (arena=20KB #34) (peak=785KB #30)

            -                        GC (reserved=158279KB, committed=45399KB)
                                        (malloc=4747KB tag=GC #1517) (peak=4764KB #1480)
                                        (mmap: reserved=153532KB, committed=40652KB, at peak)

            -                  Internal (reserved=1264KB, committed=1264KB)
                                        (malloc=1228KB tag=Internal #2492) (at peak)
                                        (mmap: reserved=36KB, committed=36KB, at peak)

            -    Native Memory Tracking (reserved=874KB, committed=874KB)
                                        (malloc=13KB tag=Native Memory Tracking #226) (at peak)
                                        (tracking overhead=860KB)

            -        Shared class space (reserved=16384KB, committed=13908KB, readonly=0KB)
                                        (mmap: reserved=16384KB, committed=13908KB, peak=14116KB)

            -                 Metaspace (reserved=65576KB, committed=8808KB)
                                        (malloc=40KB tag=Metaspace #15) (at peak)
                                        (mmap: reserved=65536KB, committed=8768KB, at peak)
            """;

    @Test
    void readsMappedStackAndMallocPerCategory() {
        NmtSummary nmt = NmtSummary.parse(SUMMARY);

        assertThat(nmt.categories()).containsKeys("Java Heap", "Class", "Thread", "GC", "Shared class space", "Metaspace");
        assertThat(nmt.threadStacks()).isEqualTo(912L << 10);
        assertThat(nmt.metaspace()).isEqualTo((1344L + 8768) << 10);
        assertThat(nmt.gc()).isEqualTo(40652L << 10);
        assertThat(nmt.otherMapped()).as("Internal only: the CDS archive is a file").isEqualTo(36L << 10);
        assertThat(nmt.mallocTotal()).isEqualTo((213L + 42 + 20 + 4747 + 1228 + 13 + 40) << 10);
    }

    @Test
    void withoutNmtThereIsNoSummary() {
        assertThat(NmtSummary.parse("1977:\nNative memory tracking is not enabled")).isNull();
    }
}
