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
import dev.offheap.lab.ExperimentResult.Chart.Kind;
import dev.offheap.lab.ExperimentResult.Series;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Draws a chart as inline SVG: a group per category with a bar per series or, for a time series, a line per
 * series; a linear or log10 axis with the unit along it; the legend under the plot. The SVG is as wide as the page
 * that shows it: its viewBox scales with it.
 */
final class SvgChart {
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
            "#9c755f"};
    static final int FONT_SIZE = 13;
    private static final int WIDTH = 1200;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int PLOT_HEIGHT = 300;
    /** From the plot's bottom to the legend: the category labels. */
    private static final int CATEGORY_LABELS = 34;
    private static final int BOTTOM = 8;

    private SvgChart() {}

    /** Where the plot is, and where its categories and values go in it. */
    private record Plot(int left, int top, int width, int height, int categories, Axis axis) {
        int bottom() {
            return top + height;
        }

        double groupWidth() {
            return (double) width / Math.max(1, categories);
        }

        double groupLeft(int category) {
            return left + category * groupWidth();
        }

        double center(int category) {
            return groupLeft(category) + groupWidth() / 2;
        }

        /** How far above the bottom a value is, clamped to the plot. */
        double rise(double value) {
            return height * Math.clamp(axis.fraction(value), 0, 1);
        }
    }

    static String render(Chart chart, String experiment) {
        Legend legend = Legend.of(chart.series().stream().map(Series::name).toList(), WIDTH - LEFT - RIGHT);
        int width = LEFT + Math.max(WIDTH - LEFT - RIGHT, legend.width()) + RIGHT;
        Plot plot = new Plot(LEFT, TOP, width - LEFT - RIGHT, PLOT_HEIGHT, chart.categories().size(), Axis.of(chart));
        int height = plot.bottom() + CATEGORY_LABELS + legend.rows() * Legend.ROW_HEIGHT + BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"chart\" data-experiment=\"%s\" xmlns=\"http://www.w3.org/2000/svg\""
                + " width=\"100%%\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%d\" role=\"img\">%n",
                Html.escape(experiment), width, height, FONT_SIZE));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" class=\"title\">%s</text>%n", LEFT,
                Html.escape(chart.title())));
        unitLabel(chart, plot, s);
        grid(plot, s);
        categoryLabels(chart, plot, s);
        if (chart.kind() == Kind.LINES) {
            lines(chart, plot, s);
        } else {
            bars(chart, plot, s);
        }
        legend(legend, chart.kind(), plot.left(), plot.bottom() + CATEGORY_LABELS, s);
        return s.append("</svg>\n").toString();
    }

    /** The unit once, along the value axis; titles often say already whether lower or higher is better. */
    private static void unitLabel(Chart chart, Plot plot, StringBuilder s) {
        s.append(String.format(Locale.ROOT, "<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(16 %d)"
                + " rotate(-90)\">%s%s</text>%n", plot.top() + plot.height() / 2, Html.escape(chart.unit()),
                chart.logScale() ? ", log scale" : ""));
    }

    private static void grid(Plot plot, StringBuilder s) {
        for (double tick : plot.axis().ticks()) {
            double y = plot.bottom() - plot.rise(tick);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n", plot.left(),
                    plot.left() + plot.width(), y, y, plot.left() - 8, y + 4, number(tick)));
        }
    }

    private static void categoryLabels(Chart chart, Plot plot, StringBuilder s) {
        for (int g = 0; g < chart.categories().size(); g++) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    plot.center(g), plot.bottom() + 20, Html.escape(chart.categories().get(g))));
        }
    }

    /** In each category's group, a bar per series sharing 80 % of the group from 10 % in. */
    private static void bars(Chart chart, Plot plot, StringBuilder s) {
        double barWidth = plot.groupWidth() * 0.8 / Math.max(1, chart.series().size());
        for (int g = 0; g < chart.categories().size(); g++) {
            for (int b = 0; b < chart.series().size(); b++) {
                Series series = chart.series().get(b);
                Double v = value(series, g);
                if (!Axis.drawable(v)) {
                    continue;
                }
                double h = Math.max(1, plot.rise(v));
                double x = plot.groupLeft(g) + plot.groupWidth() * 0.1 + b * barWidth;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
                        + " height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>%n", x, plot.bottom() - h,
                        Math.max(1, barWidth - 1), h, color(b), tooltip(chart, series, g, v)));
            }
        }
    }

    /** A line per series through its values at the categories' centres, broken where a value is missing. */
    private static void lines(Chart chart, Plot plot, StringBuilder s) {
        for (int b = 0; b < chart.series().size(); b++) {
            Series series = chart.series().get(b);
            List<String> stretch = new ArrayList<>();
            for (int g = 0; g < chart.categories().size(); g++) {
                Double v = value(series, g);
                if (Axis.drawable(v)) {
                    stretch.add(String.format(Locale.ROOT, "%.1f,%.1f", plot.center(g), plot.bottom() - plot.rise(v)));
                } else {
                    polyline(stretch, color(b), s);
                    stretch.clear();
                }
            }
            polyline(stretch, color(b), s);
            points(chart, series, color(b), plot, s);
        }
    }

    private static void polyline(List<String> points, String color, StringBuilder s) {
        if (points.size() > 1) {
            s.append(String.format(Locale.ROOT, "<polyline class=\"line\" points=\"%s\" fill=\"none\" stroke=\"%s\""
                    + " stroke-width=\"2.5\"/>%n", String.join(" ", points), color));
        }
    }

    /** A dot at each value, so that a value between two missing ones shows too. */
    private static void points(Chart chart, Series series, String color, Plot plot, StringBuilder s) {
        for (int g = 0; g < chart.categories().size(); g++) {
            Double v = value(series, g);
            if (Axis.drawable(v)) {
                s.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\""
                        + " fill=\"%s\"><title>%s</title></circle>%n", plot.center(g), plot.bottom() - plot.rise(v),
                        color, tooltip(chart, series, g, v)));
            }
        }
    }

    private static void legend(Legend legend, Kind kind, int left, int top, StringBuilder s) {
        for (int b = 0; b < legend.names().size(); b++) {
            int x = left + legend.x(b);
            int y = top + legend.y(b);
            s.append(key(kind, x, y, color(b))).append(String.format(Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>%n", x + Legend.KEY + Legend.KEY_GAP,
                    y + Legend.KEY - 1, Html.escape(legend.names().get(b))));
        }
    }

    /** A square of the bars' colour, or a stroke of the line's. */
    private static String key(Kind kind, int x, int y, String color) {
        return kind == Kind.LINES
                ? String.format(Locale.ROOT, "<line class=\"key\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\""
                        + " stroke-width=\"3\"/>", x, x + Legend.KEY, y + Legend.KEY / 2, y + Legend.KEY / 2, color)
                : String.format(Locale.ROOT, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
                        + " fill=\"%s\"/>", x, y, Legend.KEY, Legend.KEY, color);
    }

    private static Double value(Series series, int category) {
        return category < series.values().size() ? series.values().get(category) : null;
    }

    private static String color(int series) {
        return COLORS[series % COLORS.length];
    }

    private static String tooltip(Chart chart, Series series, int category, double value) {
        return Html.escape(series.name() + ", " + chart.categories().get(category) + ": " + number(value) + " "
                + chart.unit());
    }

    /** A short label for an axis value: 0.5, 12, 1.2k, 3.4M. */
    static String number(double v) {
        String suffix = "";
        double x = v;
        if (v >= 1e9) {
            x = v / 1e9;
            suffix = "G";
        } else if (v >= 1e6) {
            x = v / 1e6;
            suffix = "M";
        } else if (v >= 1e3) {
            x = v / 1e3;
            suffix = "k";
        }
        return new BigDecimal(x).round(new MathContext(3)).stripTrailingZeros().toPlainString() + suffix;
    }
}
