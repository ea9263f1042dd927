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

        assertThat(json).isEqualTo("{\"n\":42,\"neg\":-7,\"s\":\"text\",\"nothing\":null,\"x\":0.5000,"
                + "\"list\":[1,\"two\",2.2500,null,{},[],{\"a\":1}],\"empty\":{}}");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("n", 42.0);
        expected.put("neg", -7.0);
        expected.put("s", "text");
        expected.put("nothing", null);
        expected.put("x", 0.5);
        expected.put("list", Arrays.asList(1.0, "two", 2.25, null, Map.of(), List.of(), Map.of("a", 1.0)));
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
    void fractionsHaveFourDecimalsAndWhatIsNotFiniteIsNull() {
        String json = new Json().beginArray().value(1.0 / 3).value(2.0 / 3).value(-0.5).value(1e6).value(0.0)
                .value(Double.NaN).value(Double.POSITIVE_INFINITY).value(Double.NEGATIVE_INFINITY).endArray().toString();

        assertThat(json).isEqualTo("[0.3333,0.6667,-0.5000,1000000.0000,0.0000,null,null,null]");
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
