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
import static org.assertj.core.api.Assertions.within;

import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The value axis: round linear ticks from 0 to at least the largest value, powers of ten on a log axis. */
class AxisTest {
    private static Axis axis(boolean log, Double... values) {
        return Axis.of(new Chart("t", "ms", log, List.of("a"), List.of(new Series("s", Arrays.asList(values)))));
    }

    @Test
    void linearTicksAreRoundStepsUpToATickAtOrAboveTheMax() {
        assertThat(Axis.linearTicks(39.5)).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0);
        assertThat(Axis.linearTicks(59.8)).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0);
        assertThat(Axis.linearTicks(100)).containsExactly(0.0, 20.0, 40.0, 60.0, 80.0, 100.0);
        assertThat(Axis.linearTicks(763)).containsExactly(0.0, 200.0, 400.0, 600.0, 800.0);
        assertThat(Axis.linearTicks(14)).containsExactly(0.0, 2.5, 5.0, 7.5, 10.0, 12.5, 15.0);
        assertThat(Axis.linearTicks(1)).containsExactly(0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
        assertThat(Axis.linearTicks(2648)).containsExactly(0.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0, 3000.0);
    }

    @Test
    void linearTicksBelowOneHaveNoRoundingErrors() {
        assertThat(Axis.linearTicks(0.7)).containsExactly(0.0, 0.2, 0.4, 0.6, 0.8);
        assertThat(Axis.linearTicks(0.3)).containsExactly(0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3);
        assertThat(Axis.linearTicks(0.0011)).containsExactly(0.0, 2e-4, 4e-4, 6e-4, 8e-4, 0.001, 0.0012);
    }

    @Test
    void aMaxOnARoundStepIsTheTopTick() {
        assertThat(Axis.linearTicks(0.6)).containsExactly(0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6);
        assertThat(Axis.linearTicks(5000)).containsExactly(0.0, 1000.0, 2000.0, 3000.0, 4000.0, 5000.0);
    }

    @Test
    void theLinearAxisIsPlacedByTheLargestFinitePositiveValue() {
        Axis axis = axis(false, 39.5, Double.NaN, null, -80.0, Double.POSITIVE_INFINITY, 12.0);

        assertThat(axis.log()).isFalse();
        assertThat(axis.ticks()).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0);
        assertThat(axis.fraction(30)).isEqualTo(0.75);
    }

    @Test
    void logTicksArePowersOfTenAroundTheValues() {
        Axis axis = axis(true, 0.05, 120.0, 0.5);

        assertThat(axis.log()).isTrue();
        assertThat(axis.ticks()).containsExactly(0.01, 0.1, 1.0, 10.0, 100.0, 1000.0);
        assertThat(axis.fraction(10)).isCloseTo(0.6, within(1e-12));
    }

    @Test
    void withoutValuesTheLinearAxisGoesToOneAndTheLogAxisFromOneToTen() {
        assertThat(axis(false, Double.NaN).ticks()).containsExactly(0.0, 0.2, 0.4, 0.6, 0.8, 1.0);
        assertThat(axis(true, 0.0).ticks()).containsExactly(1.0, 10.0);
    }
}
