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

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabRun;
import dev.offheap.lab.Outcome;
import java.util.List;
import java.util.Locale;

/** The lab's report as one self-contained HTML page: inline CSS and SVG, nothing fetched. */
public final class HtmlReport {
    private HtmlReport() {}

    private static final String STYLE = """
            body { font-family: sans-serif; margin: 2em; max-width: 1400px; color: #222; }
            table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
            th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
            th { background: #f3f3f3; }
            .verdict { font-weight: bold; }
            .note { color: #555; font-size: 0.9em; }
            .left-out { margin-top: -0.5em; }
            figure { margin: 1em 0 2em; }
            svg.chart { display: block; width: 100%; height: auto; }
            svg .grid, svg .bar { shape-rendering: crispEdges; }
            svg .grid { stroke: #ddd; } svg .tick, svg .legend, svg .axis { fill: #333; }
            svg .title { font-size: 15px; font-weight: bold; }
            """;

    public static String render(LabRun run) {
        StringBuilder s = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<title>offheap lab report</title>\n<style>").append(STYLE).append("</style></head><body>\n")
                .append("<h1>offheap lab</h1>\n<ul class=\"run\">\n")
                .append(item("Machine", run.machine())).append(item("JDK", run.jdk()))
                .append(item("Options", run.options())).append(item("Started", run.started()))
                .append(item("Took", String.format(Locale.ROOT, "%.0f s", run.seconds()))).append("</ul>\n");
        for (Outcome outcome : run.outcomes()) {
            section(outcome, s);
        }
        return s.append("</body></html>\n").toString();
    }

    private static String item(String name, String value) {
        return "<li><b>" + name + ":</b> " + Html.escape(value) + "</li>\n";
    }

    private static void section(Outcome outcome, StringBuilder s) {
        ExperimentResult r = outcome.result();
        s.append("<section class=\"experiment\" id=\"").append(Html.escape(r.name())).append("\">\n<h2>")
                .append(Html.escape(r.name())).append(": ").append(Html.escape(r.title())).append("</h2>\n")
                .append(String.format(Locale.ROOT, "<p class=\"status\">%s in %.1f s</p>%n",
                        outcome.status().name().toLowerCase(Locale.ROOT), outcome.seconds()));
        for (String verdict : r.verdicts()) {
            s.append("<p class=\"verdict\">").append(Html.escape(verdict)).append("</p>\n");
        }
        for (Chart chart : r.charts()) {
            s.append("<figure>").append(SvgChart.render(chart, r.name())).append("</figure>\n");
        }
        for (Table table : r.tables()) {
            table(table, s);
        }
        for (String note : r.notes()) {
            s.append("<p class=\"note\">").append(Html.escape(note)).append("</p>\n");
        }
        s.append("</section>\n");
    }

    private static void table(Table table, StringBuilder s) {
        ShownTable shown = ShownTable.of(table);
        s.append("<table><caption>").append(Html.escape(table.title())).append("</caption>\n<tr>");
        for (String column : shown.table().columns()) {
            s.append("<th>").append(Html.escape(column)).append("</th>");
        }
        s.append("</tr>\n");
        for (List<String> row : shown.table().rows()) {
            s.append("<tr>");
            for (String cell : row) {
                s.append("<td>").append(Html.escape(cell)).append("</td>");
            }
            s.append("</tr>\n");
        }
        s.append("</table>\n");
        shown.leftOut().ifPresent(note -> s.append("<p class=\"note left-out\">").append(Html.escape(note))
                .append("</p>\n"));
    }
}
