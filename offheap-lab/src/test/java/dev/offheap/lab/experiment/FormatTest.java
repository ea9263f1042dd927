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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How the micro experiments print times, sizes and ratios to the best. */
class FormatTest {
    @Test
    void nanosPicksTheUnitAtEachPowerOfAThousand() {
        assertThat(Format.nanos(0)).isEqualTo("0.0 ns");
        assertThat(Format.nanos(24.04)).isEqualTo("24.0 ns");
        assertThat(Format.nanos(999.9)).isEqualTo("999.9 ns");
        assertThat(Format.nanos(1_000)).isEqualTo("1.00 µs");
        assertThat(Format.nanos(2_620)).isEqualTo("2.62 µs");
        assertThat(Format.nanos(1_000_000)).isEqualTo("1.00 ms");
        assertThat(Format.nanos(3_520_000)).isEqualTo("3.52 ms");
        assertThat(Format.nanos(1e9)).isEqualTo("1.00 s");
        assertThat(Format.nanos(12.5e9)).isEqualTo("12.50 s");
    }

    @Test
    void nanosOfAMissingFigureIsADash() {
        assertThat(Format.nanos(Double.NaN)).isEqualTo("-");
    }

    @Test
    void bytesUsesTheLargestUnitThatDividesExactly() {
        assertThat(Format.bytes(0)).isEqualTo("0 B");
        assertThat(Format.bytes(128)).isEqualTo("128 B");
        assertThat(Format.bytes(1023)).isEqualTo("1023 B");
        assertThat(Format.bytes(1024)).isEqualTo("1 KiB");
        assertThat(Format.bytes(1536)).isEqualTo("1536 B");
        assertThat(Format.bytes(16 * 1024)).isEqualTo("16 KiB");
        assertThat(Format.bytes(1 << 20)).isEqualTo("1 MiB");
        assertThat(Format.bytes((1 << 20) + 1024)).isEqualTo("1025 KiB");
        assertThat(Format.bytes(64L << 20)).isEqualTo("64 MiB");
        assertThat(Format.bytes(1L << 30)).isEqualTo("1 GiB");
        assertThat(Format.bytes((1L << 30) + (1 << 20))).isEqualTo("1025 MiB");
        assertThat(Format.bytes(3L << 30)).isEqualTo("3 GiB");
    }

    @Test
    void ratioToTheBestRoundsBelowOneHalfPercentToTheBest() {
        assertThat(Format.ratio(24, 24)).isEqualTo("1.0x (best)");
        assertThat(Format.ratio(1.004, 1)).isEqualTo("1.0x (best)");
        assertThat(Format.ratio(1.005, 1)).isEqualTo("1.0x");
        assertThat(Format.ratio(20, 24)).as("below the best, as when the best is another column's")
                .isEqualTo("1.0x (best)");
    }

    @Test
    void ratioToTheBestHasOneDecimalBelowAHundredAndThousandsSeparatorsAbove() {
        assertThat(Format.ratio(82.5, 24)).isEqualTo("3.4x");
        assertThat(Format.ratio(99.9, 1)).isEqualTo("99.9x");
        assertThat(Format.ratio(100, 1)).isEqualTo("100x");
        assertThat(Format.ratio(10_008, 24)).isEqualTo("417x");
        assertThat(Format.ratio(3_520_000, 24)).isEqualTo("146,667x");
    }

    @Test
    void ratioWithAMissingFigureIsADash() {
        assertThat(Format.ratio(Double.NaN, 24)).isEqualTo("-");
        assertThat(Format.ratio(24, Double.NaN)).isEqualTo("-");
    }

    @Test
    void minSkipsMissingFiguresAndIsNaNWithoutAny() {
        assertThat(Format.min(List.of(3.0, Double.NaN, 1.5, 2.0))).isEqualTo(1.5);
        assertThat(Format.min(List.of(Double.NaN, 7.0))).isEqualTo(7.0);
        assertThat(Format.min(List.of(Double.NaN, Double.NaN))).isNaN();
        assertThat(Format.min(List.of())).isNaN();
    }
}
