package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The XML cut out of System.native_heap_info's output when nothing comes before it. */
class MallocXmlExtractionTest {

    @Test
    void outputThatStartsWithTheXmlIsTakenFromItsFirstCharacter() {
        assertThat(MallocInfo.extractXml("<malloc version=\"1\">\n</malloc>"))
                .isEqualTo("<malloc version=\"1\">\n</malloc>");
        assertThat(MallocInfo.extractXml("<malloc version=\"1\">\n</malloc>\nCommand executed successfully\n"))
                .isEqualTo("<malloc version=\"1\">\n</malloc>");
    }
}
