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

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Literals cut short at every place the reader looks ahead: each is refused with an
 * {@link IllegalArgumentException} that says what is missing at the end, never an index error; and nesting is
 * counted as depth, not as the number of containers.
 */
class PyLiteralEndsOfTextTest {

    private static void refused(String text, String message) {
        assertThatThrownBy(() -> PyLiteral.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void anOpenContainerAtTheEndMissesAValue() {
        refused("{", "a value is missing at the end");
        refused("(", "a value is missing at the end");
        refused("[", "a value is missing at the end");
        refused("{'a'", "expected ':' at the end");
        refused("{'a': 1,", "a value is missing at the end");
        refused("[1", "expected ',' or ']' at the end");
    }

    @Test
    void aStringCutShortIsNotClosed() {
        refused("'ab\\", "a string is not closed at the end");
        refused("'\\x41", "a string is not closed at the end");
        refused("'\\x4", "a \\x escape needs two hex digits at position 3 ('4')");
        refused("'\\x", "a \\x escape needs two hex digits at the end");
        refused("'\\x4g'", "a \\x escape needs two hex digits at position 3 ('4g'')");
        assertThat(PyLiteral.parse("'\\x41'").value()).isEqualTo("A");
    }

    @Test
    void numbersAndNamesEndWhereTheTextEnds() {
        assertThat(PyLiteral.parse("7").value()).isEqualTo(7L);
        assertThat(PyLiteral.parse("{'a': 12}").value()).isEqualTo(Map.of("a", 12L));
        assertThat(PyLiteral.parse("12L").value()).isEqualTo(12L);
        assertThat(PyLiteral.parse("False").value()).isEqualTo(false);
        assertThat(PyLiteral.parse("None").value()).isSameAs(PyLiteral.NONE).hasToString("None");
        refused("+", "a sign without a number at the end");
    }

    @Test
    void manyContainersSideBySideAreNotNesting() {
        int count = 3 * PyLiteral.MAX_DEPTH;
        Object value = PyLiteral.parse("[" + "[], ".repeat(count) + "{}, ()]").value();
        assertThat(value).isInstanceOf(List.class);
        List<?> items = (List<?>) value;
        assertThat(items).hasSize(count + 2);
        assertThat(items.getFirst()).isEqualTo(List.of());
        assertThat(items.get(count)).isEqualTo(Collections.emptyMap());
        assertThat(items.getLast()).isEqualTo(new PyLiteral.Tuple(List.of()));
    }
}
