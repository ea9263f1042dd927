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

package dev.offheap.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineTest {
    /** A line as offheap inspect --record writes it (schema 3), cut to what the timeline reads and a few more. */
    static String inspectLine(String time, long heap, long malloc, long unexplained, String... findingIds) {
        StringBuilder f = new StringBuilder();
        for (String id : findingIds) {
            f.append(f.length() == 0 ? "" : ",").append("{\"id\":\"").append(id)
                    .append("\",\"severity\":\"warning\",\"text\":\"").append(id).append(" says \\\"why\\\"\"}");
        }
        return "{\"version\":3,\"pid\":42,\"time\":\"" + time + "\",\"vm\":\"OpenJDK 64-Bit Server VM 21.0.5\",\"rss\":"
                + (heap + malloc + unexplained) + ",\"heap\":" + heap + ",\"direct\":null,\"mapped\":0,\"malloc\":" + malloc
                + ",\"offheap\":null,\"unexplained\":" + unexplained + ",\"unexplainedShare\":0.01,\"details\":{\"container\":"
                + "{\"cgroupVersion\":2,\"limit\":1073741824,\"workingSet\":" + (heap + malloc + 1000) + ",\"oomKills\":0},"
                + "\"ceilings\":{\"items\":[{\"key\":\"heap\",\"bytes\":536870912,\"source\":\"MaxHeapSize\",\"kind\":\"limit\"}],"
                + "\"sum\":536870912}},\"attribution\":[{\"part\":\"heap\",\"bytes\":" + heap + ",\"exact\":true,\"bound\":null,"
                + "\"source\":\"x\"},{\"part\":\"malloc\",\"bytes\":" + malloc + ",\"exact\":false,\"bound\":1e9,\"source\":\"y\"}],"
                + "\"caches\":[],\"allocators\":[],\"findings\":[" + f + "],\"growth\":[{\"figure\":\"malloc\","
                + "\"bytesPerSecond\":1.5E3,\"samples\":2,\"steady\":false,\"since\":null}]}";
    }

    @Test
    void readsInspectRecordsWithUnexplainedAsAPartAndSkipsLinesThatAreNotSamples() {
        Timeline t = Timeline.parse(List.of(
                inspectLine("2026-11-28T10:00:10Z", 100, 50, 7, "growing-malloc"),
                "",
                inspectLine("2026-11-28T10:00:00Z", 100, 40, 0),
                "{\"version\":3,\"pid\":42,\"time\":\"2026-11-28T10:00:2",
                "[1,2]",
                "{\"time\":\"not a time\",\"attribution\":[]}",
                "{\"time\":\"2026-11-28T10:00:20Z\"}"));
        assertThat(t.skippedLines()).isEqualTo(4);
        assertThat(t.points()).extracting(p -> p.time().toString())
                .containsExactly("2026-11-28T10:00:00Z", "2026-11-28T10:00:10Z");
        assertThat(t.partKeys()).containsExactly("heap", "malloc", "unexplained");
        Timeline.Point last = t.points().get(1);
        assertThat(last.parts()).isEqualTo(Map.of("heap", 100L, "malloc", 50L, "unexplained", 7L));
        assertThat(last.stacked()).isEqualTo(last.rss()).isEqualTo(157);
        assertThat(last.limit()).isEqualTo(1L << 30);
        assertThat(last.ceilings()).isEqualTo(512L << 20);
        assertThat(last.workingSet()).isEqualTo(1150);
        assertThat(last.findings()).containsExactly(new Finding("growing-malloc", "warning", "growing-malloc says \"why\""));
        assertThat(t.pid()).isEqualTo(42);
        assertThat(t.vm()).isEqualTo("OpenJDK 64-Bit Server VM 21.0.5");
        assertThat(t.source()).isEqualTo("offheap inspect");
        assertThat(t.rate("malloc")).isEqualTo(1.0);
        assertThat(t.rate("unexplained")).as("one sample has it").isZero();
        assertThat(t.rate("nothing")).isZero();
    }

    @Test
    void aFindingIsAnEventWhereItAppearsAndAgainOnlyAfterItWentAway() {
        Timeline t = Timeline.parse(List.of(
                inspectLine("2026-11-28T10:00:00Z", 1, 1, 0),
                inspectLine("2026-11-28T10:00:05Z", 1, 1, 0, "growing-malloc"),
                inspectLine("2026-11-28T10:00:10Z", 1, 1, 0, "growing-malloc", "container-near-limit"),
                inspectLine("2026-11-28T10:00:15Z", 1, 1, 0, "container-near-limit"),
                inspectLine("2026-11-28T10:00:20Z", 1, 1, 0, "growing-malloc", "container-near-limit")));
        assertThat(t.events()).extracting(e -> e.time().toString().substring(17) + " " + e.finding().id()).containsExactly(
                "05Z growing-malloc", "10Z container-near-limit", "20Z growing-malloc");
    }

    @Test
    void readsTheRecordersOwnLinesAndVersionOneFindingsAsText() {
        String line = "{\"version\":1,\"source\":\"offheap-recorder\",\"pid\":7,\"time\":\"2026-11-28T10:00:00Z\",\"rss\":10,"
                + "\"attribution\":[{\"part\":\"heap\",\"bytes\":4},{\"part\":\"native\",\"bytes\":6},{\"part\":\"odd\"}],"
                + "\"findings\":[\"a finding as text\"]}";
        Timeline t = Timeline.parse(List.of(line));
        assertThat(t.source()).isEqualTo("offheap-recorder");
        assertThat(t.points().get(0).parts()).containsOnlyKeys("heap", "native");
        assertThat(t.points().get(0).limit()).isEqualTo(-1);
        assertThat(t.points().get(0).findings()).extracting(Finding::text).containsExactly("a finding as text");
    }

    @Test
    void jsonReaderReadsWhatTheRecordsHoldAndNamesWhereItStops() {
        assertThat(JsonReader.parse(" {\"a\":[1,-2.5e3,true,false,null,\"x\\u0041\\n\\t\\\\\\/\"],\"b\":{}} "))
                .isEqualTo(Map.of("a", new ArrayList<>(java.util.Arrays.asList(1L, -2500.0, true, false, null, "xA\n\t\\/")),
                        "b", Map.of()));
        assertThat(JsonReader.parse("[]")).isEqualTo(List.of());
        assertThatThrownBy(() -> JsonReader.parse("{\"a\":1} x")).hasMessage("not JSON at offset 8: text after the value");
        assertThatThrownBy(() -> JsonReader.parse("{\"a\" 1}")).hasMessageContaining("':' was expected");
        assertThatThrownBy(() -> JsonReader.parse("{a:1}")).hasMessageContaining("a key was expected");
        assertThatThrownBy(() -> JsonReader.parse("[1 2]")).hasMessageContaining("',' or ']' was expected");
        assertThatThrownBy(() -> JsonReader.parse("{\"a\":1 \"b\"}")).hasMessageContaining("',' or '}' was expected");
        assertThatThrownBy(() -> JsonReader.parse("[1.2.3]")).hasMessageContaining("'1.2.3' is not a number");
        assertThatThrownBy(() -> JsonReader.parse("tru")).hasMessageContaining("a value was expected");
        assertThatThrownBy(() -> JsonReader.parse("\"abc")).hasMessageContaining("unexpected end of text");
        assertThatThrownBy(() -> JsonReader.parse("\"\\u12\"")).hasMessageContaining("a short \\u escape");
        assertThatThrownBy(() -> JsonReader.parse("")).hasMessageContaining("end of text where a value was expected");
        assertThatThrownBy(() -> JsonReader.parse("@")).hasMessageContaining("a value was expected");
    }

    @Test
    void jsonReaderTakesWhitespaceEverywhereAndEveryEscape() {
        assertThat(JsonReader.parse(" { \"a\" : [ 1 , 2 ] , \"b\" : { } , \"c\" : [ ] , \"d\" : { \"e\" : null } } "))
                .isEqualTo(Map.of("a", List.of(1L, 2L), "b", Map.of(), "c", List.of(), "d", java.util.Collections.singletonMap("e", null)));
        assertThat(JsonReader.parse("\"\\b\\f\\r\\\"\\u00e9\"")).isEqualTo("\b\f\r\"\u00e9");
        assertThat(JsonReader.parse("1e3")).isEqualTo(1000.0);
        assertThat(JsonReader.parse("2E2")).isEqualTo(200.0);
        assertThat(JsonReader.parse("-0")).isEqualTo(0L);
        assertThat(JsonReader.parse("[{}]")).isEqualTo(List.of(Map.of()));
        assertThatThrownBy(() -> JsonReader.parse("{\"a\":1")).hasMessageContaining("unexpected end of text");
        assertThatThrownBy(() -> JsonReader.parse("[")).hasMessageContaining("end of text where a value was expected");
        assertThatThrownBy(() -> JsonReader.parse("{\"a\":1,}")).hasMessageContaining("a key was expected");
        assertThatThrownBy(() -> JsonReader.parse("{\"a\" x")).hasMessage("not JSON at offset 5: ':' was expected");
    }
}
