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

import dev.offheap.lab.ExperimentResult.Chart;
import java.math.BigDecimal;
import java.util.DoubleSummaryStatistics;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A chart's value axis, its ticks from bottom to top: round steps from 0 on a linear axis (1, 2, 2.5 or 5 times a
 * power of ten), the top tick at or above the largest value; powers of ten on a log axis. Only finite positive
 * values are drawn, so only they place the ticks.
 */
record Axis(boolean log, List<Double> ticks) {
    /** Round steps give 4 to 6 intervals under this. */
    private static final int MAX_INTERVALS = 6;
    private static final List<BigDecimal> ROUND_STEPS = List.of(new BigDecimal("1"), new BigDecimal("2"),
            new BigDecimal("2.5"), new BigDecimal("5"), new BigDecimal("10"));

    static Axis of(Chart chart) {
        DoubleSummaryStatistics drawn = chart.series().stream().flatMap(s -> s.values().stream())
                .filter(Axis::drawable).mapToDouble(Double::doubleValue).summaryStatistics();
        if (chart.logScale()) {
            return drawn.getCount() == 0 ? new Axis(true, logTicks(1, 10))
                    : new Axis(true, logTicks(drawn.getMin(), drawn.getMax()));
        }
        return new Axis(false, linearTicks(drawn.getCount() == 0 ? 1 : drawn.getMax()));
    }

    static boolean drawable(Double value) {
        return value != null && Double.isFinite(value) && value > 0;
    }

    /** From 0 to the first multiple of the round step at or above {@code max}. */
    static List<Double> linearTicks(double max) {
        BigDecimal step = roundStep(max / MAX_INTERVALS);
        // The tolerance keeps a max that is a multiple of the step, such as 0.7 for 0.1, from a tick above it.
        int intervals = Math.max(1, (int) Math.ceil(max / step.doubleValue() - 1e-9));
        return IntStream.rangeClosed(0, intervals).mapToObj(i -> step.multiply(BigDecimal.valueOf(i)).doubleValue())
                .toList();
    }

    /** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least {@code least}. */
    private static BigDecimal roundStep(double least) {
        int exponent = (int) Math.floor(Math.log10(least));
        return ROUND_STEPS.stream().map(m -> m.scaleByPowerOfTen(exponent)).filter(s -> s.doubleValue() >= least)
                .findFirst().orElseThrow();
    }

    /** The powers of ten around {@code min} and {@code max}, at least one decade. */
    private static List<Double> logTicks(double min, double max) {
        int bottom = (int) Math.floor(Math.log10(min));
        int top = Math.max(bottom + 1, (int) Math.ceil(Math.log10(max)));
        return IntStream.rangeClosed(bottom, top).mapToObj(e -> BigDecimal.ONE.scaleByPowerOfTen(e).doubleValue())
                .toList();
    }

    /** Where {@code value} sits on the axis: 0 at the bottom tick, 1 at the top one. */
    double fraction(double value) {
        double bottom = ticks.getFirst();
        double top = ticks.getLast();
        return log ? Math.log10(value / bottom) / Math.log10(top / bottom) : value / top;
    }
}
