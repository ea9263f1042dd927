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

import java.util.Locale;

/** Formatting of table cells (the experiments' and the server shootout's). */
public final class Cells {
    /** The cell of a figure that was not measured. */
    public static final String NONE = "—";

    private Cells() {}

    /** Three significant figures at most, or {@link #NONE} for NaN. */
    public static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return NONE;
        }
        double abs = Math.abs(value);
        String pattern = abs >= 100 ? "%.0f" : abs >= 10 ? "%.1f" : abs >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    /** A ratio as {@code 1.00x}, or {@link #NONE}. */
    public static String ratio(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? NONE
                : String.format(Locale.ROOT, "%.2fx", value);
    }

    static String mib(long bytes) {
        return bytes < 0 ? NONE : number(bytes / (1024.0 * 1024.0)) + " MiB";
    }

    static String jdk() {
        return "JDK " + Runtime.version().feature() + " (" + System.getProperty("java.vm.name") + ")";
    }
}
