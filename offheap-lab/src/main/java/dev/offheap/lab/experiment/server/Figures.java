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

package dev.offheap.lab.experiment.server;

import dev.offheap.lab.experiment.Range;
import dev.offheap.lab.experiment.Cells;
import java.util.Locale;

/** Formatting of the shootout's figures for tables and verdicts: the lab's {@link Cells}, plus ranges. */
final class Figures {
    static final String NONE = Cells.NONE;

    private Figures() {}

    /** Three significant figures at most, or {@link #NONE} for NaN. */
    static String number(double value) {
        return Cells.number(value);
    }

    /** {@code min–max}, or the single value when they are equal. */
    static String range(Range r) {
        return r.count() == 0 ? NONE : r.min() == r.max() ? number(r.min()) : number(r.min()) + "–" + number(r.max());
    }

    /** A ratio as {@code 0.97x}, or {@link #NONE}. */
    static String ratio(double value) {
        return Cells.ratio(value);
    }

    /** A fraction as a whole percentage, e.g. {@code 12%}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }
}
