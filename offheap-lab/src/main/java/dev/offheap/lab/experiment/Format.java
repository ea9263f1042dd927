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

import java.util.List;
import java.util.Locale;

/** How the lab's experiments print times, sizes and ratios. */
final class Format {
    private Format() {}

    /** 12.3 ns, 1.4 µs, 3.5 ms, 1.20 s; "-" for NaN. */
    static String nanos(double ns) {
        if (Double.isNaN(ns)) {
            return "-";
        }
        if (ns < 1e3) {
            return String.format(Locale.ROOT, "%.1f ns", ns);
        }
        if (ns < 1e6) {
            return String.format(Locale.ROOT, "%.2f µs", ns / 1e3);
        }
        if (ns < 1e9) {
            return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }

    /** "10.6–11.3 ns" in the unit of the larger end; "-" when nothing was measured. */
    static String nanosRange(Range r) {
        if (r.isEmpty()) {
            return "-";
        }
        String low = nanos(r.min());
        String high = nanos(r.max());
        String unit = high.substring(high.indexOf(' '));
        return low.endsWith(unit) ? low.substring(0, low.indexOf(' ')) + "–" + high : low + "–" + high;
    }

    /** 128 B, 16 KiB, 16 MiB, 1 GiB. */
    static String bytes(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    /** "1.0x (best)" or "3.4x". */
    static String ratio(double value, double best) {
        if (Double.isNaN(value) || Double.isNaN(best)) {
            return "-";
        }
        double r = value / best;
        if (r < 1.005) {
            return "1.0x (best)";
        }
        return String.format(Locale.ROOT, r < 100 ? "%.1fx" : "%,.0fx", r);
    }

    /** The smallest non-NaN value, or NaN. */
    static double min(List<Double> values) {
        return values.stream().filter(v -> !Double.isNaN(v)).mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }
}
