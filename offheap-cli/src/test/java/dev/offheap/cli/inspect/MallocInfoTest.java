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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        assertThat(MallocInfo.extractXml("1234:\n<malloc version=\"1\">\n<heap nr=\"0\">")).as("cut off").isNull();
        assertThat(MallocInfo.extractXml("</malloc> then <malloc version=\"1\">")).as("end before start").isNull();
    }

    @Test
    void theXmlIsCutOutOfTheLinesAroundIt() {
        assertThat(MallocInfo.extractXml("1234:\n<malloc version=\"1\">\n</malloc>\nCommand executed successfully\n"))
                .isEqualTo("<malloc version=\"1\">\n</malloc>");
    }

    /**
     * The current size, not the max; the main arena is the first heap; a heap's top chunk is rest less the binned
     * chunks (size totals less fast) less the unsorted ones; an element without the attribute reads 0; comments,
     * unknown totals and aspace lines count for nothing.
     */
    @Test
    void readsCurrentFiguresAndEachArenasTopChunk() {
        MallocInfo info = MallocInfo.parse("""
                <malloc version="1">
                <!-- recorded by hand -->
                <heap nr="0">
                <sizes>
                  <size from="17" to="32" total="64" count="2"/>
                  <!-- a comment among the sizes -->
                  <size from="33" to="48" total="480" count="10"/>
                  <unsorted from="1000" to="2000" total="3000" count="2"/>
                </sizes>
                <total type="fast" count="2" size="64"/>
                <total type="rest" count="13" size="104000"/>
                <system type="current" size="1000000"/>
                <system type="max" size="2000000"/>
                <aspace type="total" size="1000000"/>
                </heap>
                <heap nr="1">
                <sizes>
                </sizes>
                <total type="fast" count="0" size="0"/>
                <total type="rest" count="1" size="50000"/>
                <system type="current" size="500000"/>
                </heap>
                <total type="fast" count="2" size="64"/>
                <total type="rest" count="14" size="154000"/>
                <total type="other" count="5" size="777"/>
                <total type="mmap" count="3" size="3000000"/>
                <system type="current" size="1500000"/>
                <system type="max" size="2500000"/>
                <aspace type="total" size="1500000"/>
                </malloc>
                """);

        // main top: 104000 - (544 - 64) - 3000; second: 50000
        assertThat(info).isEqualTo(new MallocInfo(2, 1_500_000, 154_064, 3_000_000, 3, 100_520, 150_520));
        assertThat(info.inUseBytes()).isEqualTo(1_500_000 - 154_064 + 3_000_000);
        assertThat(info.heldBytes()).isEqualTo(4_500_000);
        assertThat(info.fragmentation()).isEqualTo((154_064.0 - 100_520) / (1_500_000 - 100_520));
    }

    @Test
    void aTopChunkIsNeverNegativeAndMissingFiguresAreZero() {
        MallocInfo info = MallocInfo.parse("""
                <malloc version="1">
                <heap nr="0">
                <sizes>
                  <size from="33" to="48" total="500" count="10"/>
                </sizes>
                <total type="rest" count="10" size="100"/>
                </heap>
                <total type="rest" size="100"/>
                <total type="mmap" size="4096"/>
                </malloc>
                """);

        assertThat(info).isEqualTo(new MallocInfo(1, 0, 100, 4096, 0, 0, 0));
    }

    @Test
    void noArenaIsNoFigure() {
        assertThat(MallocInfo.parse("<malloc version=\"1\"></malloc>")).isEqualTo(new MallocInfo(0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void whatIsNotXmlOrDeclaresADoctypeIsRefused() {
        assertThatThrownBy(() -> MallocInfo.parse("<malloc version=\"1\"><heap>"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not malloc_info XML: ");
        assertThatThrownBy(() -> MallocInfo.parse("<!DOCTYPE malloc [<!ENTITY x \"y\">]><malloc>&x;</malloc>"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not malloc_info XML: ");
    }

    /** The XML parser's default error handler prints "[Fatal Error] ..." to stderr, into inspect's output. */
    @Test
    void aRefusedDocumentLeavesStderrAlone() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> MallocInfo.parse("<malloc><heap></malloc>")).isInstanceOf(IllegalArgumentException.class);
        } finally {
            System.setErr(stderr);
        }
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void fragmentationIsZeroWhenNothingIsUnreturnable() {
        assertThat(new MallocInfo(1, 1000, 600, 0, 0, 1000, 1000).fragmentation()).isZero();
        assertThat(new MallocInfo(1, 1000, 600, 0, 0, 1200, 1200).fragmentation()).isZero();
        assertThat(new MallocInfo(1, 1000, 600, 0, 0, 200, 200).fragmentation()).isEqualTo(0.5);
    }
}
