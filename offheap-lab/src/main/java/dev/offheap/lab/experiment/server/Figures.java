package dev.offheap.lab.experiment.server;

import java.util.Locale;

/** Formatting of the shootout's figures for tables and verdicts. */
final class Figures {
    static final String NONE = "—";

    private Figures() {}

    /** Three significant figures at most, or {@link #NONE} for NaN. */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return NONE;
        }
        double abs = Math.abs(value);
        String pattern = abs >= 100 ? "%.0f" : abs >= 10 ? "%.1f" : abs >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, value);
    }

    /** {@code min–max}, or the single value when they are equal. */
    static String range(Range r) {
        return r.count() == 0 ? NONE : r.min() == r.max() ? number(r.min()) : number(r.min()) + "–" + number(r.max());
    }

    /** A ratio as {@code 0.97x}, or {@link #NONE}. */
    static String ratio(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? NONE : String.format(Locale.ROOT, "%.2fx", value);
    }

    /** A fraction as a whole percentage, e.g. {@code 12%}. */
    static String percent(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }
}
