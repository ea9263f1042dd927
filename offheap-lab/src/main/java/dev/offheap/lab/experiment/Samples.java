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

/** Percentiles of a set of measurements (nanoseconds or any other unit), nearest-rank. */
final class Samples {
    private final long[] sorted;

    Samples(long[] values) {
        this.sorted = values.clone();
        Arrays.sort(sorted);
    }

    int count() {
        return sorted.length;
    }

    /** The value at percentile {@code p} in [0, 100]; NaN when there are no samples. */
    double percentile(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.clamp(rank - 1, 0, sorted.length - 1)];
    }

    double min() {
        return percentile(0);
    }

    double max() {
        return percentile(100);
    }

    /** The median (of an even count: the mean of the middle two), smallest and largest. */
    Range range() {
        return Range.of(java.util.Arrays.stream(sorted).asDoubleStream().toArray());
    }
}
