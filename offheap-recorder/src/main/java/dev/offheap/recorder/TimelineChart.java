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

package dev.offheap.recorder;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Draws a {@link Timeline} as inline SVG: the parts stacked over time (an area each, the first at the bottom), the
 * container's limit and the JVM's ceilings as dashed lines when they are within reach of the data (otherwise said
 * in the legend), the container's working set as a line, and each finding as a numbered mark on the time axis.
 */
final class TimelineChart {
    static final String[] COLORS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
        "#9c755f", "#ff9da7", "#bab0ac", "#86bcb6", "#d37295", "#a0cbe8"};
    private static final int WIDTH = 1200;
    private static final int LEFT = 90;
    private static final int RIGHT = 30;
    private static final int TOP = 30;
    private static final int HEIGHT = 360;
    private static final int BOTTOM = 40;
    /** A limit or ceiling further above the data than this factor is named in the legend, not drawn. */
    private static final double REACH = 3;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private TimelineChart() {}

    static String svg(Timeline t) {
        List<Timeline.Point> points = t.points();
        long dataMax = 1;
        for (Timeline.Point p : points) {
            dataMax = Math.max(dataMax, Math.max(p.stacked(), Math.max(p.rss(), p.workingSet())));
        }
        long limit = last(points, "limit");
        long ceilings = last(points, "ceilings");
        boolean drawLimit = limit > 0 && limit <= dataMax * REACH;
        boolean drawCeilings = ceilings > 0 && ceilings <= dataMax * REACH;
        double yMax = Math.max(dataMax, Math.max(drawLimit ? limit : 0, drawCeilings ? ceilings : 0)) * 1.05;
        Instant t0 = points.get(0).time();
        double span = Math.max(1, Duration.between(t0, points.get(points.size() - 1).time()).toMillis());
        int plotWidth = WIDTH - LEFT - RIGHT;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">%n", WIDTH,
                TOP + HEIGHT + BOTTOM));
        // the y axis: five steps of a round size
        double step = niceStep(yMax / 5);
        for (double v = 0; v <= yMax; v += step) {
            double y = y(v, yMax);
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT, LEFT + plotWidth, y, y, LEFT - 6,
                    y + 4, RecordReport.size((long) v)));
        }
        // the time axis
        for (int i = 0; i <= 6; i++) {
            double x = LEFT + plotWidth * i / 6.0;
            Instant at = t0.plusMillis((long) (span * i / 6));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                    TOP + HEIGHT + 18, CLOCK.format(at)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#555\">UTC</text>%n",
                LEFT + plotWidth, TOP + HEIGHT + 34));
        // the parts, stacked
        double[] below = new double[points.size()];
        int color = 0;
        for (String key : t.partKeys()) {
            StringBuilder upper = new StringBuilder();
            StringBuilder lower = new StringBuilder();
            double[] above = new double[points.size()];
            for (int i = 0; i < points.size(); i++) {
                Timeline.Point p = points.get(i);
                above[i] = below[i] + p.parts().getOrDefault(key, 0L);
                double x = x(p.time(), t0, span, plotWidth, points.size());
                upper.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(above[i], yMax)));
            }
            for (int i = points.size() - 1; i >= 0; i--) {
                double x = x(points.get(i).time(), t0, span, plotWidth, points.size());
                lower.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y(below[i], yMax)));
            }
            s.append(String.format(Locale.ROOT, "<polygon class=\"area\" data-part=\"%s\" fill=\"%s\" fill-opacity=\"0.85\""
                    + " stroke=\"%s\" points=\"%s%s\"><title>%s</title></polygon>%n", RecordReport.escape(key),
                    COLORS[color % COLORS.length], COLORS[color % COLORS.length], upper, lower.toString().trim(),
                    RecordReport.escape(key)));
            color++;
            below = above;
        }
        // the container's working set
        StringBuilder ws = new StringBuilder();
        for (Timeline.Point p : points) {
            if (p.workingSet() >= 0) {
                ws.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(p.time(), t0, span, plotWidth, points.size()),
                        y(p.workingSet(), yMax)));
            }
        }
        if (ws.length() > 0) {
            s.append("<polyline class=\"working-set\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.5\" points=\"")
                    .append(ws.toString().trim()).append("\"><title>container working set</title></polyline>\n");
        }
        if (drawLimit) {
            level(s, "limit", limit, yMax, plotWidth, "#d62728", "container limit " + RecordReport.size(limit));
        }
        if (drawCeilings) {
            level(s, "ceilings", ceilings, yMax, plotWidth, "#ff7f0e", "JVM ceilings " + RecordReport.size(ceilings));
        }
        // the findings on the time axis
        int n = 1;
        for (Timeline.Event e : t.events()) {
            double x = x(e.time(), t0, span, plotWidth, points.size());
            String stroke = e.finding().severity().equals("critical") ? "#d62728"
                    : e.finding().severity().equals("warning") ? "#ff7f0e" : "#555";
            s.append(String.format(Locale.ROOT, "<g class=\"finding\" data-id=\"%s\"><line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\""
                    + " y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"2,3\"/><circle cx=\"%.1f\" cy=\"%d\" r=\"9\" fill=\"%s\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" fill=\"#fff\" text-anchor=\"middle\">%d</text><title>%s</title></g>%n",
                    RecordReport.escape(e.finding().id()), x, x, TOP, TOP + HEIGHT, stroke, x, TOP - 12, stroke, x,
                    TOP - 8, n++, RecordReport.escape(e.finding().id() + ": " + e.finding().text())));
        }
        s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>%n",
                LEFT, TOP, plotWidth, HEIGHT));
        return s.append("</svg>\n").toString();
    }

    private static void level(StringBuilder s, String cls, long bytes, double yMax, int plotWidth, String color,
            String label) {
        double y = y(bytes, yMax);
        s.append(String.format(Locale.ROOT, "<g class=\"%s\"><line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                + " stroke-width=\"2\" stroke-dasharray=\"8,4\"/><text x=\"%d\" y=\"%.1f\" fill=\"%s\">%s</text></g>%n",
                cls, LEFT, LEFT + plotWidth, y, y, color, LEFT + 6, y - 5, color, RecordReport.escape(label)));
    }

    static long last(List<Timeline.Point> points, String which) {
        for (int i = points.size() - 1; i >= 0; i--) {
            long v = which.equals("limit") ? points.get(i).limit() : points.get(i).ceilings();
            if (v > 0) {
                return v;
            }
        }
        return -1;
    }

    private static double x(Instant t, Instant t0, double span, int plotWidth, int count) {
        if (count == 1) {
            return LEFT + plotWidth / 2.0;
        }
        return LEFT + plotWidth * Duration.between(t0, t).toMillis() / span;
    }

    private static double y(double v, double yMax) {
        return TOP + HEIGHT - HEIGHT * Math.min(1, v / yMax);
    }

    /** 1, 2 or 5 times a power of two's MiB or a power of ten, whichever reads better: sizes in MiB. */
    static double niceStep(double raw) {
        double mib = 1 << 20;
        double m = Math.max(raw / mib, 1e-3);
        double p = Math.pow(10, Math.floor(Math.log10(m)));
        double f = m / p;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
        return nice * p * mib;
    }
}
