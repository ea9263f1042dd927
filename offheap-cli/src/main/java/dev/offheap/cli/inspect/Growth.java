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

package dev.offheap.cli.inspect;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Steady growth in a series of samples of one figure (a part of RSS, malloc's memory in use): the kind a leak makes,
 * told from what healthy memory does. It fires when, over at least {@link #MIN_SAMPLES} samples and
 * {@link #MIN_SPAN}, the figure rose by at least {@link #MIN_RISE} at {@link #MIN_RATE} or more, never fell by more
 * than a tenth of that rise from one sample to the next (a heap's sawtooth falls at every collection), and still
 * rises in the later half of the samples at half the whole series' rate or more (a cache that filled and stopped,
 * a burst that ended, are flat there).
 *
 * @param bytesPerSecond the rate over the samples (least squares)
 * @param since when the growth began: the first sample of the series
 * @param now the figure at the last sample
 */
record Growth(double bytesPerSecond, Instant since, long now) {
    static final int MIN_SAMPLES = 5;
    static final Duration MIN_SPAN = Duration.ofSeconds(20);
    static final long MIN_RISE = 2L << 20;
    /** 0.5 MiB a minute. */
    static final double MIN_RATE = (512.0 * 1024) / 60;
    private static final double MAX_FALL_OF_RISE = 0.10;
    private static final double LATER_HALF_SHARE = 0.5;

    /** One sample of the figure. */
    record Point(Instant time, long bytes) {}

    /** The growth the points show, oldest first, or empty when they show none. */
    static Optional<Growth> of(List<Point> points) {
        int n = points.size();
        if (n < MIN_SAMPLES) {
            return Optional.empty();
        }
        Point first = points.getFirst();
        Point last = points.getLast();
        if (Duration.between(first.time(), last.time()).compareTo(MIN_SPAN) < 0) {
            return Optional.empty();
        }
        long rise = last.bytes() - first.bytes();
        if (rise < MIN_RISE) {
            return Optional.empty();
        }
        for (int i = 1; i < n; i++) {
            if (points.get(i - 1).bytes() - points.get(i).bytes() > MAX_FALL_OF_RISE * rise) {
                return Optional.empty();
            }
        }
        double rate = slope(points);
        double later = slope(points.subList(n / 2, n));
        if (rate < MIN_RATE || later < LATER_HALF_SHARE * rate) {
            return Optional.empty();
        }
        return Optional.of(new Growth(rate, first.time(), last.bytes()));
    }

    /** Least-squares bytes per second; 0 for fewer than two points or no time between them. */
    static double slope(List<Point> points) {
        int n = points.size();
        if (n < 2) {
            return 0;
        }
        Instant t0 = points.getFirst().time();
        double sx = 0;
        double sy = 0;
        for (Point p : points) {
            sx += seconds(t0, p.time());
            sy += p.bytes();
        }
        double mx = sx / n;
        double my = sy / n;
        double sxy = 0;
        double sxx = 0;
        for (Point p : points) {
            double dx = seconds(t0, p.time()) - mx;
            sxy += dx * (p.bytes() - my);
            sxx += dx * dx;
        }
        return sxx == 0 ? 0 : sxy / sxx;
    }

    /** MiB a minute. */
    double mibPerMinute() {
        return bytesPerSecond * 60 / (1 << 20);
    }

    /** How long until {@code room} more bytes are taken at this rate. */
    Duration timeFor(long room) {
        return Duration.ofSeconds((long) Math.max(0, room / bytesPerSecond));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }
}
