package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** malloc_info's XML (two arenas, as glibc 2.36 prints it) read into mallinfo's terms. */
class MallocInfoTest {
    private static final String XML = """
            1234:
            <malloc version="1">
            <heap nr="0">
            <sizes>
              <size from="33" to="33" total="1320" count="40"/>
              <unsorted from="64273" to="64273" total="64273" count="1"/>
            </sizes>
            <total type="fast" count="0" size="0"/>
            <total type="rest" count="42" size="199193"/>
            <system type="current" size="299008"/>
            <system type="max" size="299008"/>
            <aspace type="total" size="299008"/>
            <aspace type="mprotect" size="299008"/>
            </heap>
            <heap nr="1">
            <sizes>
              <size from="17" to="32" total="96" count="3"/>
              <unsorted from="32769" to="1703937" total="5472280" count="24"/>
            </sizes>
            <total type="fast" count="3" size="96"/>
            <total type="rest" count="25" size="5473928"/>
            <system type="current" size="6758400"/>
            <system type="max" size="6758400"/>
            <aspace type="total" size="6758400"/>
            <aspace type="mprotect" size="6758400"/>
            <aspace type="subheaps" size="1"/>
            </heap>
            <total type="fast" count="3" size="96"/>
            <total type="rest" count="67" size="5673121"/>
            <total type="mmap" count="9" size="5771264"/>
            <system type="current" size="7057408"/>
            <system type="max" size="7057408"/>
            <aspace type="total" size="7057408"/>
            <aspace type="mprotect" size="7057408"/>
            </malloc>
            """;

    @Test
    void readsTotalsArenasAndTopChunks() {
        MallocInfo info = MallocInfo.parse(MallocInfo.extractXml(XML));

        assertThat(info.arenas()).isEqualTo(2);
        assertThat(info.systemBytes()).isEqualTo(7_057_408);
        assertThat(info.freeBytes()).isEqualTo(96 + 5_673_121);
        assertThat(info.mmappedBytes()).isEqualTo(5_771_264);
        assertThat(info.mmappedChunks()).isEqualTo(9);
        assertThat(info.inUseBytes()).isEqualTo(7_057_408 - 5_673_217 + 5_771_264);
        // top = rest - (sizes - fast) - unsorted
        assertThat(info.mainArenaTop()).isEqualTo(199_193 - 1_320 - 64_273);
        assertThat(info.topBytes()).isEqualTo(info.mainArenaTop() + (5_473_928 - (96 - 96) - 5_472_280));
        double keep = info.mainArenaTop();
        assertThat(info.fragmentation()).isCloseTo((5_673_217 - keep) / (7_057_408 - keep), within(1e-9));
    }

    @Test
    void outputWithoutXmlIsNotParsed() {
        assertThat(MallocInfo.extractXml("1234:\nError: malloc_info failed")).isNull();
    }
}
