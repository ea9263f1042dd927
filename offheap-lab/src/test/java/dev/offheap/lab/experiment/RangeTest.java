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

/** A range's median, spread, noise and overlap, NaNs and empty ranges included. */
class RangeTest {
    @Test
    void ofSortsLeavesOutNaNsAndTakesTheMeanOfTheMiddleTwo() {
        assertThat(Range.of(3, Double.NaN, 1, 2, 10)).isEqualTo(new Range(2.5, 1, 10, 4));
        assertThat(Range.of(5)).isEqualTo(new Range(5, 5, 5, 1));
        assertThat(Range.of(Double.NaN)).isEqualTo(Range.NONE);
        assertThat(Range.NONE.isEmpty()).isTrue();
    }

    @Test
    void spreadIsTheWidthOverTheMedianAndNoisyAboveThirtyPercent() {
        assertThat(Range.of(10, 11, 13).spread()).isCloseTo(0.2727, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(Range.of(10, 13).isNoisy()).as("3 / 11.5 = 26%").isFalse();
        assertThat(new Range(10, 10, 13.01, 3).isNoisy()).as("just above 30%").isTrue();
        assertThat(new Range(10, 10, 13, 3).isNoisy()).as("exactly 30%").isFalse();
        assertThat(Range.NONE.isNoisy()).isFalse();
        assertThat(Range.NONE.spread()).isNaN();
    }

    @Test
    void rangesOverlapWhenTheyShareAValueAndAnEmptyOneOverlapsNothing() {
        Range a = new Range(2, 1, 3, 3);
        assertThat(a.overlaps(new Range(4, 3, 5, 3))).as("touching").isTrue();
        assertThat(a.overlaps(new Range(4, 3.01, 5, 3))).isFalse();
        assertThat(new Range(4, 3.01, 5, 3).overlaps(a)).isFalse();
        assertThat(a.overlaps(new Range(2, 0, 10, 3))).as("inside").isTrue();
        assertThat(a.overlaps(Range.NONE)).isFalse();
        assertThat(Range.NONE.overlaps(a)).isFalse();
    }

    @Test
    void timesChangesTheUnitOfEveryFigure() {
        assertThat(new Range(2e6, 1e6, 3e6, 4).times(1e-6)).isEqualTo(new Range(2, 1, 3, 4));
    }
}
