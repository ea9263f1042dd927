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

/** Nearest-rank percentiles: the smallest value with at least p % of the values at or below it. */
class SamplesTest {
    private final Samples five = new Samples(new long[] {50, 10, 40, 20, 30});

    @Test
    void percentilesAreNearestRankOverTheSortedValues() {
        assertThat(five.count()).isEqualTo(5);
        assertThat(five.percentile(20)).isEqualTo(10);
        assertThat(five.percentile(21)).isEqualTo(20);
        assertThat(five.percentile(50)).isEqualTo(30);
        assertThat(five.percentile(80)).isEqualTo(40);
        assertThat(five.percentile(99)).isEqualTo(50);
    }

    @Test
    void minAndMaxAreTheEnds() {
        assertThat(five.min()).isEqualTo(10);
        assertThat(five.percentile(0)).isEqualTo(10);
        assertThat(five.max()).isEqualTo(50);
        assertThat(five.percentile(100)).isEqualTo(50);
    }

    @Test
    void percentilesOutsideZeroToAHundredAreClampedToTheEnds() {
        assertThat(five.percentile(-10)).isEqualTo(10);
        assertThat(five.percentile(150)).isEqualTo(50);
    }

    @Test
    void noSamplesHaveNoPercentiles() {
        Samples none = new Samples(new long[0]);

        assertThat(none.count()).isZero();
        assertThat(none.percentile(50)).isNaN();
        assertThat(none.min()).isNaN();
        assertThat(none.max()).isNaN();
    }

    @Test
    void oneSampleIsEveryPercentile() {
        Samples one = new Samples(new long[] {7});

        assertThat(one.percentile(0)).isEqualTo(7);
        assertThat(one.percentile(50)).isEqualTo(7);
        assertThat(one.percentile(100)).isEqualTo(7);
    }

    @Test
    void theCallersArrayIsCopiedNotSortedInPlace() {
        long[] values = {3, 1, 2};
        Samples samples = new Samples(values);
        values[0] = 100;

        assertThat(values).containsExactly(100, 1, 2);
        assertThat(samples.max()).isEqualTo(3);
    }
}
