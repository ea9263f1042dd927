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

import java.util.Arrays;

/**
 * One figure measured several times (iterations of a benchmark, runs, rounds): the median, the smallest and the
 * largest (NaN when nothing was measured). Verdicts compare ranges, never a single number: two figures whose
 * ranges overlap are too close to call.
 *
 * @param median the middle value, or the mean of the middle two
 * @param min    the smallest
 * @param max    the largest
 * @param count  how many measurements
 */
public record Range(double median, double min, double max, int count) {
    /**
     * A range is noisy when its spread, {@code (max - min) / median}, is above this: iterations of a steady
     * benchmark on a quiet machine stay within about 10 %; another process taking the core for part of an
     * iteration makes that iteration (and the spread) several times larger.
     */
    public static final double NOISY_SPREAD = 0.30;

    /** Nothing measured. */
    public static final Range NONE = new Range(Double.NaN, Double.NaN, Double.NaN, 0);

    /** The range of {@code values}, NaNs left out; the median of an even count is the mean of the middle two. */
    public static Range of(double... values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return NONE;
        }
        double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        return new Range(median, v[0], v[v.length - 1], v.length);
    }

    /** Whether nothing was measured. */
    public boolean isEmpty() {
        return count == 0 || Double.isNaN(median);
    }

    /** {@code (max - min) / median}: 0 for one measurement, NaN for none. */
    public double spread() {
        return isEmpty() ? Double.NaN : (max - min) / Math.abs(median);
    }

    /** Whether the measurements disagree by more than {@link #NOISY_SPREAD}. */
    public boolean isNoisy() {
        return !isEmpty() && spread() > NOISY_SPREAD;
    }

    /** Whether the two ranges share a value (an empty range overlaps nothing). */
    public boolean overlaps(Range other) {
        return !isEmpty() && !other.isEmpty() && min <= other.max && other.min <= max;
    }

    /** Every figure multiplied by {@code factor} (a change of unit). */
    public Range times(double factor) {
        return new Range(median * factor, min * factor, max * factor, count);
    }
}
