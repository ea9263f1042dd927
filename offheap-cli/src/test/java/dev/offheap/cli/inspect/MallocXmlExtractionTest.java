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
