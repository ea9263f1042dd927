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

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON writer: exact text for nested objects and arrays, numbers, null and escaped strings. */
class JsonTest {

    @Test
    void writesNestedObjectsAndArraysWithCommasBetweenTheirMembersOnly() {
        String json = new Json().beginObject().field("n", 42L).field("neg", -7L).field("s", "text")
                .field("nothing", (String) null).field("x", 0.5).key("list").beginArray().value(1L).value("two")
                .value(2.25).value((String) null).beginObject().endObject().beginArray().endArray().beginObject()
                .field("a", 1L).endObject().endArray().key("empty").beginObject().endObject().endObject().toString();

        assertThat(json).isEqualTo("{\"n\":42,\"neg\":-7,\"s\":\"text\",\"nothing\":null,\"x\":0.5,"
                + "\"list\":[1,\"two\",2.25,null,{},[],{\"a\":1}],\"empty\":{}}");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("n", 42L);
        expected.put("neg", -7L);
        expected.put("s", "text");
        expected.put("nothing", null);
        expected.put("x", 0.5);
        expected.put("list", Arrays.asList(1L, "two", 2.25, null, Map.of(), List.of(), Map.of("a", 1L)));
        expected.put("empty", Map.of());
        assertThat(MiniJson.parse(json)).isEqualTo(expected);
    }

    @Test
    void anArrayOfObjectsAtTheTop() {
        String json = new Json().beginArray().beginObject().field("pid", 1L).endObject().beginObject()
                .field("pid", 2L).field("name", "b").endObject().endArray().toString();

        assertThat(json).isEqualTo("[{\"pid\":1},{\"pid\":2,\"name\":\"b\"}]");
    }

    @Test
    void emptyContainers() {
        assertThat(new Json().beginObject().endObject().toString()).isEqualTo("{}");
        assertThat(new Json().beginArray().endArray().toString()).isEqualTo("[]");
        assertThat(new Json().toString()).isEmpty();
    }

    @Test
    void fractionsAreWrittenExactlyAndWhatIsNotFiniteIsNull() {
        String json = new Json().beginArray().value(1.0 / 3).value(0.99999).value(-0.5).value(1e6).value(0.0)
                .value(1e-7).value(Double.NaN).value(Double.POSITIVE_INFINITY).value(Double.NEGATIVE_INFINITY).endArray()
                .toString();

        assertThat(json).isEqualTo("[0.3333333333333333,0.99999,-0.5,1000000.0,0.0,1.0E-7,null,null,null]");
        assertThat(MiniJson.parse(json)).isEqualTo(Arrays.asList(1.0 / 3, 0.99999, -0.5, 1e6, 0.0, 1e-7, null, null, null));
    }

    @Test
    void aNumberKeepsItsTypeBooleansAreLiteralsAndANullNumberIsNull() {
        String json = new Json().beginArray().value((Number) 7).value((Number) Long.MAX_VALUE).value((Number) 0.25)
                .value((Number) 1.5f).value((Number) null).value(true).value(false).endArray().toString();

        assertThat(json).isEqualTo("[7,9223372036854775807,0.25,1.5,null,true,false]");
    }

    @Test
    void longsAreWrittenWhole() {
        assertThat(new Json().beginArray().value(Long.MAX_VALUE).value(Long.MIN_VALUE).value(0L).endArray().toString())
                .isEqualTo("[9223372036854775807,-9223372036854775808,0]");
    }

    @Test
    void stringsEscapeQuotesBackslashesAndControlCharacters() {
        String text = "q\" b\\ n\n r\r t\t nul\u0000 bell\u0007 bs\b ff\f us\u001f sp ~ del\u007f é €";

        String json = new Json().value(text).toString();

        assertThat(json).isEqualTo("\"q\\\" b\\\\ n\\n r\\r t\\t nul\\u0000 bell\\u0007 bs\\u0008 ff\\u000c us\\u001f"
                + " sp ~ del\u007f é €\"");
        assertThat(MiniJson.parse(json)).isEqualTo(text);
    }

    @Test
    void keysAreEscapedToo() {
        assertThat(new Json().beginObject().field("a\"b\n", 1L).endObject().toString()).isEqualTo("{\"a\\\"b\\n\":1}");
    }
}
