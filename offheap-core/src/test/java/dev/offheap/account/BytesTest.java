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

package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The byte counts every budget message and report shows, literally as documented ("4.0 MiB (4194304 bytes)"). */
class BytesTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0                   | 0 bytes
            1                   | 1 bytes
            1023                | 1023 bytes
            -1023               | -1023 bytes
            -1024               | -1.0 KiB (-1024 bytes)
            1024                | 1.0 KiB (1024 bytes)
            1536                | 1.5 KiB (1536 bytes)
            2000                | 2.0 KiB (2000 bytes)
            6000                | 5.9 KiB (6000 bytes)
            10000               | 9.8 KiB (10000 bytes)
            -2048               | -2.0 KiB (-2048 bytes)
            1048524             | 1023.9 KiB (1048524 bytes)
            1048525             | 1.0 MiB (1048525 bytes)
            1048575             | 1.0 MiB (1048575 bytes)
            1048576             | 1.0 MiB (1048576 bytes)
            4194304             | 4.0 MiB (4194304 bytes)
            1073741824          | 1.0 GiB (1073741824 bytes)
            1099511627776       | 1.0 TiB (1099511627776 bytes)
            1125899906842624    | 1.0 PiB (1125899906842624 bytes)
            1152921504606846976 | 1.0 EiB (1152921504606846976 bytes)
            9223372036854775807 | 8.0 EiB (9223372036854775807 bytes)
            """)
    void formatGivesBinaryUnitsWithTheExactCount(long bytes, String expected) {
        assertThat(Bytes.format(bytes)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0                   | 0 B
            1023                | 1023 B
            -1023               | -1023 B
            -1024               | -1.0 KiB
            1024                | 1.0 KiB
            131072              | 128.0 KiB
            1048575             | 1.0 MiB
            16777216            | 16.0 MiB
            -1073741824         | -1.0 GiB
            9223372036854775807 | 8.0 EiB
            -9223372036854775808 | -8.0 EiB
            """)
    void humanGivesOneDecimalInBinaryUnits(long bytes, String expected) {
        assertThat(Bytes.human(bytes)).isEqualTo(expected);
    }

    /**
     * 1152865209611504896 bytes are exactly the double 1023.95 PiB (1023.95 * 2^50, the only unit where that
     * double is a whole number of bytes): at 1023.95 the next unit is taken, or it would print "1024.0 PiB".
     */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1152865209611504896 | 1.0 EiB
            1152865209611504640 | 1023.9 PiB
            """)
    void exactly1023Point95OfAUnitIsOneOfTheNext(long bytes, String expected) {
        assertThat(Bytes.human(bytes)).isEqualTo(expected);
        assertThat(Bytes.format(bytes)).isEqualTo(expected + " (" + bytes + " bytes)");
    }
}
