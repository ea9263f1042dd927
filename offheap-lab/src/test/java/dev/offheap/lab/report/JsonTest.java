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

package dev.offheap.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The lab's JSON writer: indented objects, one-line arrays, NaN as null, escaped strings. */
class JsonTest {
    private static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void scalarsAsThemselvesAndEveryTextEndsWithALineBreak() {
        assertThat(Json.write(null)).isEqualTo("null\n");
        assertThat(Json.write(true)).isEqualTo("true\n");
        assertThat(Json.write(false)).isEqualTo("false\n");
        assertThat(Json.write(42)).isEqualTo("42\n");
        assertThat(Json.write(1L << 40)).isEqualTo("1099511627776\n");
        assertThat(Json.write(1.5)).isEqualTo("1.5\n");
        assertThat(Json.write(2.0)).isEqualTo("2.0\n");
        assertThat(Json.write(0.25f)).isEqualTo("0.25\n");
    }

    @Test
    void nanAndInfinitiesAreNull() {
        assertThat(Json.write(Double.NaN)).isEqualTo("null\n");
        assertThat(Json.write(Double.POSITIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(Double.NEGATIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(Float.NaN)).isEqualTo("null\n");
        assertThat(Json.write(Float.POSITIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(Float.NEGATIVE_INFINITY)).isEqualTo("null\n");
        assertThat(Json.write(Arrays.asList(1.0, Double.NaN, null))).isEqualTo("[1.0, null, null]\n");
    }

    @Test
    void objectsAreIndentedByTwoPerLevelAndArraysStayOnOneLine() {
        Object value = map("a", 1, "b", map("c", List.of(1, 2), "d", Map.of(), "e", List.of(map("x", "y"))),
                "f", List.of());

        assertThat(Json.write(value)).isEqualTo("""
                {
                  "a": 1,
                  "b": {
                    "c": [1, 2],
                    "d": {},
                    "e": [{
                      "x": "y"
                    }]
                  },
                  "f": []
                }
                """);
    }

    @Test
    void anEmptyObjectIsTwoBraces() {
        assertThat(Json.write(Map.of())).isEqualTo("{}\n");
    }

    @Test
    void stringsEscapeQuotesBackslashesAndControlCharacters() {
        assertThat(Json.write("say \"hi\" \\ now\n\r\t\u0001\u001f µs <&>"))
                .isEqualTo("\"say \\\"hi\\\" \\\\ now\\n\\r\\t\\u0001\\u001f µs <&>\"\n");
    }

    @Test
    void otherObjectsAndKeysAreWrittenAsTheirText() {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(7, Thread.State.NEW);

        assertThat(Json.write(m)).isEqualTo("{\n  \"7\": \"NEW\"\n}\n");
    }

    /** A record as a test would make one: its components are an object's fields, in declaration order. */
    record Figure(double median, double min, String unit) {}

    @Test
    void recordsAreObjectsOfTheirComponentsInDeclarationOrder() {
        assertThat(Json.write(java.util.List.of(new Figure(2.5, Double.NaN, "ns")))).isEqualTo("""
                [{
                  "median": 2.5,
                  "min": null,
                  "unit": "ns"
                }]
                """);
    }
}
