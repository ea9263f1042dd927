package dev.offheap.lab.report;

import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Draws a grouped bar chart as inline SVG: a group per category, a bar per series, linear or log10 axis. */
final class SvgChart {
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
            "#9c755f"};
    private static final int WIDTH = 820;
    private static final int HEIGHT = 340;
    private static final int LEFT = 70;
    private static final int RIGHT = 180;
    private static final int TOP = 30;
    private static final int BOTTOM = 40;

    private SvgChart() {}

    static String render(Chart chart, String experiment) {
        Axis axis = Axis.of(chart);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"chart\" data-experiment=\"%s\" xmlns=\"http://www.w3.org/2000/svg\""
                + " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">%n", Html.escape(experiment),
                WIDTH, HEIGHT, WIDTH, HEIGHT, WIDTH, HEIGHT));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" class=\"title\">%s (%s%s)</text>%n", LEFT,
                Html.escape(chart.title()), Html.escape(chart.unit()), chart.logScale() ? ", log scale" : ""));
        for (double tick : axis.ticks()) {
            double y = TOP + plotH - plotH * axis.fraction(tick);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>%n", LEFT, LEFT + plotW,
                    y, y, LEFT - 6, y + 4, number(tick)));
        }
        int groups = Math.max(1, chart.categories().size());
        int bars = Math.max(1, chart.series().size());
        double groupW = (double) plotW / groups;
        double barW = groupW * 0.8 / bars;
        for (int g = 0; g < chart.categories().size(); g++) {
            double gx = LEFT + g * groupW;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">%s</text>%n",
                    gx + groupW / 2, HEIGHT - BOTTOM + 18, Html.escape(chart.categories().get(g))));
            for (int b = 0; b < chart.series().size(); b++) {
                Series series = chart.series().get(b);
                Double v = g < series.values().size() ? series.values().get(g) : null;
                if (!Axis.drawable(v)) {
                    continue;
                }
                double h = Math.max(1, plotH * Math.clamp(axis.fraction(v), 0, 1));
                double x = gx + groupW * 0.1 + b * barW;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
                        + " height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s %s</title></rect>%n", x, TOP + plotH - h,
                        Math.max(1, barW - 1), h, COLORS[b % COLORS.length], Html.escape(series.name()),
                        Html.escape(chart.categories().get(g)), number(v), Html.escape(chart.unit())));
            }
        }
        for (int b = 0; b < chart.series().size(); b++) {
            int y = TOP + 10 + b * 20;
            s.append(String.format(Locale.ROOT, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\""
                    + " fill=\"%s\"/><text x=\"%d\" y=\"%d\" class=\"legend\">%s</text>%n", WIDTH - RIGHT + 12, y,
                    COLORS[b % COLORS.length], WIDTH - RIGHT + 30, y + 10, Html.escape(chart.series().get(b).name())));
        }
        return s.append("</svg>\n").toString();
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
