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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Python literals of .npy headers, read as {@code ast.literal_eval} reads them. */
class PyLiteralTest {

    @Test
    void readsTheValuesOfAHeaderDict() {
        PyLiteral.Parsed parsed = PyLiteral.parse("{'descr': '<f8', 'fortran_order': False, 'shape': (3,), } ");
        assertThat(parsed.value()).isEqualTo(Map.of("descr", "<f8", "fortran_order", false, "shape",
                new PyLiteral.Tuple(List.of(3L))));
        assertThat(parsed.comments()).isEmpty();
    }

    @Test
    void parenthesesMakeATupleOnlyWithACommaOrNothingInside() {
        assertThat(PyLiteral.parse("(3)").value()).isEqualTo(3L);
        assertThat(PyLiteral.parse("(3,)").value()).isEqualTo(new PyLiteral.Tuple(List.of(3L)));
        assertThat(PyLiteral.parse("()").value()).isEqualTo(new PyLiteral.Tuple(List.of()));
        assertThat(PyLiteral.parse("(1, 2)").value()).isEqualTo(new PyLiteral.Tuple(List.of(1L, 2L)));
        assertThat(PyLiteral.parse("((1,),)").value())
                .isEqualTo(new PyLiteral.Tuple(List.of(new PyLiteral.Tuple(List.of(1L)))));
        assertThat(PyLiteral.parse("[('a', '<f8'), ]").value())
                .isEqualTo(List.of(new PyLiteral.Tuple(List.of("a", "<f8"))));
    }

    @Test
    void keepsCommentsWithWhereTheyStart() {
        PyLiteral.Parsed parsed = PyLiteral.parse("{'a': 1, # one\n 'b': None} # two  ");
        assertThat(parsed.value()).isEqualTo(Map.of("a", 1L, "b", PyLiteral.NONE));
        assertThat(parsed.comments()).containsExactly(new PyLiteral.Comment(10, " one"),
                new PyLiteral.Comment(28, " two  "));
    }

    @Test
    void readsStringsIntegersAndNamesAsPythonDoes() {
        assertThat(PyLiteral.parse("'it\\'s \\x41\\\\'").value()).isEqualTo("it's A\\");
        assertThat(PyLiteral.parse("\"say 'hi'\"").value()).isEqualTo("say 'hi'");
        assertThat(PyLiteral.parse("-42").value()).isEqualTo(-42L);
        assertThat(PyLiteral.parse("00").value()).isEqualTo(0L);
        assertThat(PyLiteral.parse("9223372036854775807").value()).isEqualTo(Long.MAX_VALUE);
        assertThat(PyLiteral.parse("True").value()).isEqualTo(true);
        assertThat(PyLiteral.parse("{'k': 1, 'k': 2}").value()).as("the last key wins").isEqualTo(Map.of("k", 2L));
        assertThatThrownBy(() -> PyLiteral.parse("'a\nb'")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a string is not closed at position 2 ('\\nb'')");
    }

    @Test
    void deepNestingIsRefusedBeforeTheStackRunsOut() {
        assertThat(PyLiteral.parse("(".repeat(64) + ")".repeat(64)).value()).isInstanceOf(PyLiteral.Tuple.class);
        assertThatThrownBy(() -> PyLiteral.parse("[".repeat(65) + "]".repeat(65)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested more than 64 deep");
        assertThatThrownBy(() -> PyLiteral.parse("{'a': ".repeat(500_000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested more than 64 deep");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "{'a': 1; expected ',' or '}' at the end",
        "{'a' 1}; expected ':' at position 5",
        "'open; a string is not closed at the end",
        "true; not a literal at position 0",
        "1.5; only decimal integers are supported at position 1",
        "0x10; only decimal integers are supported",
        "07; an integer with a leading zero",
        "9223372036854775808; the integer 9223372036854775808 at position 0 is out of range",
        "(1 2); expected ',' or ')' at position 3",
        "{'a': 1} {'b': 2}; unexpected text after the literal at position 9",
        "{[1]: 2}; a dict key cannot be a list",
        "'\\q'; unsupported escape \\q",
        "; a value is missing at the end",
        "-; a sign without a number"
    })
    void refusesWhatIsNotALiteralSayingWhere(String text, String problem) {
        assertThatThrownBy(() -> PyLiteral.parse(text == null ? "" : text))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(problem);
    }
}
