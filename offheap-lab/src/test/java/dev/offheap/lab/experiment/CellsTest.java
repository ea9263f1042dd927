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

import org.junit.jupiter.api.Test;

/** Table cells: three significant figures at most, a dash for what was not measured. */
class CellsTest {
    @Test
    void numberKeepsThreeSignificantFiguresAtMost() {
        assertThat(Cells.number(2269)).isEqualTo("2269");
        assertThat(Cells.number(123.4)).isEqualTo("123");
        assertThat(Cells.number(100)).isEqualTo("100");
        assertThat(Cells.number(99.94)).isEqualTo("99.9");
        assertThat(Cells.number(10)).isEqualTo("10.0");
        assertThat(Cells.number(9.994)).isEqualTo("9.99");
        assertThat(Cells.number(1)).isEqualTo("1.00");
        assertThat(Cells.number(0.9994)).isEqualTo("0.999");
        assertThat(Cells.number(0.05)).isEqualTo("0.050");
        assertThat(Cells.number(0)).isEqualTo("0.000");
    }

    @Test
    void numberChoosesTheDecimalsByMagnitudeForNegativeValuesToo() {
        assertThat(Cells.number(-250)).isEqualTo("-250");
        assertThat(Cells.number(-12.34)).isEqualTo("-12.3");
        assertThat(Cells.number(-1.5)).isEqualTo("-1.50");
        assertThat(Cells.number(-0.5)).isEqualTo("-0.500");
    }

    @Test
    void numberOfNaNOrInfinityIsTheDash() {
        assertThat(Cells.number(Double.NaN)).isEqualTo("—");
        assertThat(Cells.number(Double.POSITIVE_INFINITY)).isEqualTo("—");
        assertThat(Cells.number(Double.NEGATIVE_INFINITY)).isEqualTo("—");
        assertThat(Cells.NONE).isEqualTo("—");
    }

    @Test
    void ratioHasTwoDecimalsAndAnX() {
        assertThat(Cells.ratio(1)).isEqualTo("1.00x");
        assertThat(Cells.ratio(0.974)).isEqualTo("0.97x");
        assertThat(Cells.ratio(59.816 / 36.383)).isEqualTo("1.64x");
        assertThat(Cells.ratio(417)).isEqualTo("417.00x");
    }

    @Test
    void ratioOfNaNOrInfinityIsTheDash() {
        assertThat(Cells.ratio(Double.NaN)).isEqualTo("—");
        assertThat(Cells.ratio(1 / 0.0)).isEqualTo("—");
        assertThat(Cells.ratio(-1 / 0.0)).isEqualTo("—");
    }

    @Test
    void mibOfBytesAndTheDashForAnUnknownSize() {
        assertThat(Cells.mib(256L << 20)).isEqualTo("256 MiB");
        assertThat(Cells.mib(16L << 20)).isEqualTo("16.0 MiB");
        assertThat(Cells.mib(1536 * 1024)).isEqualTo("1.50 MiB");
        assertThat(Cells.mib(0)).isEqualTo("0.000 MiB");
        assertThat(Cells.mib(-1)).isEqualTo("—");
    }

    @Test
    void jdkNamesTheFeatureReleaseAndTheVm() {
        assertThat(Cells.jdk()).isEqualTo("JDK 25 (" + System.getProperty("java.vm.name") + ")");
    }
}
