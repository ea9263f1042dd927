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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Turns a record, the JSON lines of {@code offheap inspect --record} or of the recorder, into one self-contained
 * HTML page: the chart of the parts over time ({@link TimelineChart}), a table of each part's first and last
 * figure and rate, and the findings in time order. Nothing is fetched: no script, no style sheet, no image.
 */
public final class RecordReport {
    private RecordReport() {}

    /**
     * Writes the report of a record.
     *
     * @param record the record's file (JSON lines)
     * @param html where to write the page
     * @return the number of samples charted
     * @throws IOException if the record cannot be read or the page written
     * @throws IllegalArgumentException if the record holds no sample
     */
    public static int write(Path record, Path html) throws IOException {
        List<String> lines = Files.readAllLines(record, StandardCharsets.UTF_8);
        Timeline t = Timeline.parse(lines);
        if (t.points().isEmpty()) {
            throw new IllegalArgumentException(record + " holds no sample (" + t.skippedLines()
                    + " lines are not samples of offheap inspect --record or of the recorder)");
        }
        Files.writeString(html, html(t, record.getFileName().toString()), StandardCharsets.UTF_8);
        return t.points().size();
    }

    /** @return the page of the samples in {@code lines}, titled {@code title} */
    static String html(List<String> lines, String title) {
        return html(Timeline.parse(lines), title);
    }

    static String html(Timeline t, String title) {
        List<Timeline.Point> points = t.points();
        Timeline.Point first = points.get(0);
        Timeline.Point last = points.get(points.size() - 1);
        Duration span = Duration.between(first.time(), last.time());
        StringBuilder h = new StringBuilder(16384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>offheap memory record: ")
                .append(escape(title)).append("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1300px}"
                + "table{border-collapse:collapse}td,th{padding:2px 10px;text-align:right;border-bottom:1px solid #ddd}"
                + "td:first-child,th:first-child{text-align:left}.swatch{display:inline-block;width:10px;height:10px;"
                + "margin-right:6px}li{margin:4px 0}</style></head><body>\n");
        h.append("<h1>Memory of process ").append(t.pid()).append(" over time</h1>\n<p>")
                .append(escape(t.vm())).append("<br>From ").append(seconds(first.time())).append(" to ").append(seconds(last.time()))
                .append(" (").append(duration(span)).append("), ").append(points.size()).append(" samples by ")
                .append(escape(t.source())).append(t.skippedLines() > 0 ? ", " + t.skippedLines() + " lines skipped" : "")
                .append(".</p>\n");
        h.append(TimelineChart.svg(t));
        long limit = TimelineChart.last(points, "limit");
        long ceilings = TimelineChart.last(points, "ceilings");
        h.append("<p>Container limit: ").append(limit > 0 ? size(limit) : "none").append(" &middot; JVM ceilings"
                + " (heap, direct buffers, code cache, metaspace when bounded): ").append(ceilings > 0 ? size(ceilings) : "not read")
                .append(" &middot; black line: the container's working set (usage less inactive file pages)</p>\n");
        h.append("<table><tr><th>part</th><th>first</th><th>last</th><th>change</th><th>rate</th></tr>\n");
        int color = 0;
        for (String key : t.partKeys()) {
            long a = first.parts().getOrDefault(key, 0L);
            long b = last.parts().getOrDefault(key, 0L);
            h.append("<tr><td><span class=\"swatch\" style=\"background:")
                    .append(TimelineChart.COLORS[color++ % TimelineChart.COLORS.length]).append("\"></span>")
                    .append(escape(key)).append("</td><td>").append(size(a)).append("</td><td>").append(size(b))
                    .append("</td><td>").append(signed(b - a)).append("</td><td>")
                    .append(String.format(Locale.ROOT, "%+.2f MiB/min", t.rate(key) * 60 / (1 << 20))).append("</td></tr>\n");
        }
        h.append("<tr><td>RSS</td><td>").append(size(first.rss())).append("</td><td>").append(size(last.rss()))
                .append("</td><td>").append(first.rss() >= 0 && last.rss() >= 0 ? signed(last.rss() - first.rss()) : "")
                .append("</td><td></td></tr>\n</table>\n");
        List<Timeline.Event> events = t.events();
        h.append("<h2>Findings</h2>\n");
        if (events.isEmpty()) {
            h.append("<p>None in this record.</p>\n");
        } else {
            h.append("<ol class=\"findings\">\n");
            for (Timeline.Event e : events) {
                h.append("<li><b>").append(seconds(e.time())).append("</b> ").append(escape(e.finding().id())).append(" (")
                        .append(escape(e.finding().severity())).append("): ").append(escape(e.finding().text()))
                        .append("</li>\n");
            }
            h.append("</ol>\n");
        }
        return h.append("</body></html>\n").toString();
    }

    private static String seconds(java.time.Instant t) {
        return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    static String size(long bytes) {
        if (bytes < 0) {
            return "n/a";
        }
        double mib = bytes / (double) (1 << 20);
        return mib >= 1024 ? String.format(Locale.ROOT, "%.2f GiB", mib / 1024) : String.format(Locale.ROOT, "%.1f MiB", mib);
    }

    private static String signed(long bytes) {
        return (bytes < 0 ? "-" : "+") + size(Math.abs(bytes));
    }

    private static String duration(Duration d) {
        long s = d.getSeconds();
        return s >= 3600 ? String.format(Locale.ROOT, "%dh %02dm", s / 3600, s / 60 % 60)
                : String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
