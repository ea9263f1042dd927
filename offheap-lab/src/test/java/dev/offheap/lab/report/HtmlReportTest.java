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

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.LabRun;
import dev.offheap.lab.Outcome;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** report.html: one self-contained page, a section per experiment, every text escaped. */
class HtmlReportTest {
    private static final String HEAD = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
            + "<title>offheap lab report</title>\n<style>";
    private static final String BODY = "</style></head><body>\n";

    private static final ExperimentResult ALLOC = new ExperimentResult("alloc", "Get & give <back> \"buffers\"",
            List.of(new Table("T & t", List.of("size", "\"vs\" best"),
                    List.of(List.of("128 B", "1.0x (best)"), List.of("<1 KiB>", "2.0x")))),
            List.of(), List.of("a < b"), List.of("note & more"), Map.of());

    private static String body(String html) {
        assertThat(html).startsWith(HEAD).contains(BODY);
        return html.substring(html.indexOf(BODY) + BODY.length());
    }

    @Test
    void listsTheRunThenASectionPerExperimentWithItsVerdictsTablesAndNotes() {
        LabRun run = new LabRun("Machine <x>", "JDK & co", "--only a,b", "2025-06-01 10:00", 83.6,
                List.of(new Outcome(ALLOC, Outcome.Status.OK, 12.34)));

        assertThat(body(HtmlReport.render(run))).isEqualTo("""
                <h1>offheap lab</h1>
                <ul class="run">
                <li><b>Machine:</b> Machine &lt;x&gt;</li>
                <li><b>JDK:</b> JDK &amp; co</li>
                <li><b>Options:</b> --only a,b</li>
                <li><b>Started:</b> 2025-06-01 10:00</li>
                <li><b>Took:</b> 84 s</li>
                </ul>
                <section class="experiment" id="alloc">
                <h2>alloc: Get &amp; give &lt;back&gt; &quot;buffers&quot;</h2>
                <p class="status">ok in 12.3 s</p>
                <p class="verdict">a &lt; b</p>
                <table><caption>T &amp; t</caption>
                <tr><th>size</th><th>&quot;vs&quot; best</th></tr>
                <tr><td>128 B</td><td>1.0x (best)</td></tr>
                <tr><td>&lt;1 KiB&gt;</td><td>2.0x</td></tr>
                </table>
                <p class="note">note &amp; more</p>
                </section>
                </body></html>
                """);
    }

    @Test
    void columnsWhereNothingWasMeasuredAreLeftOutAndNamedUnderTheTable() {
        Table server = new Table("Static file", List.of("strategy", "req/s", "wrk req/s", "wrk p99 ms"),
                List.of(List.of("heap", "2100", "—", "—"), List.of("pool", "2648", "—", "—")));
        ExperimentResult r = new ExperimentResult("server", "t", List.of(server), List.of(), List.of(), List.of(),
                Map.of());

        String html = HtmlReport.render(new LabRun("m", "j", "", "s", 1, List.of(new Outcome(r, Outcome.Status.OK, 2))));

        assertThat(html).contains("""
                <table><caption>Static file</caption>
                <tr><th>strategy</th><th>req/s</th></tr>
                <tr><td>heap</td><td>2100</td></tr>
                <tr><td>pool</td><td>2648</td></tr>
                </table>
                <p class="note left-out">columns left out, no figure in any row: &quot;wrk req/s&quot;, \
                &quot;wrk p99 ms&quot;</p>
                </section>
                """).doesNotContain("wrk req/s</th>");
    }

    @Test
    void aRunWithoutExperimentsHasOnlyItsList() {
        String html = HtmlReport.render(new LabRun("m", "j", "", "s", 0.4, List.of()));

        assertThat(body(html)).isEqualTo("""
                <h1>offheap lab</h1>
                <ul class="run">
                <li><b>Machine:</b> m</li>
                <li><b>JDK:</b> j</li>
                <li><b>Options:</b> </li>
                <li><b>Started:</b> s</li>
                <li><b>Took:</b> 0 s</li>
                </ul>
                </body></html>
                """);
    }

    @Test
    void chartsScaleToThePageWhichIsAtMost1400PixelsWide() {
        Chart chart = new Chart("c", "ns", false, List.of("a"), List.of(new Series("s", List.of(1.0))));
        ExperimentResult io = new ExperimentResult("io", "t", List.of(), List.of(chart), List.of(), List.of(),
                Map.of());

        String html = HtmlReport.render(new LabRun("m", "j", "", "s", 1,
                List.of(new Outcome(io, Outcome.Status.OK, 1))));

        assertThat(html).contains("body { font-family: sans-serif; margin: 2em; max-width: 1400px;",
                "svg.chart { display: block; width: 100%; height: auto; }", "figure { margin: 1em 0 2em; }",
                "<figure><svg class=\"chart\" data-experiment=\"io\" xmlns=\"http://www.w3.org/2000/svg\""
                        + " width=\"100%\" viewBox=\"0 0 1200 ");
    }

    @Test
    void chartsComeAfterTheVerdictsAndBeforeTheTablesEachInAFigure() {
        Chart first = new Chart("first", "ns", false, List.of("a"), List.of(new Series("s", List.of(1.0))));
        Chart second = new Chart("second", "ms", false, List.of("b"), List.of(new Series("s", List.of(2.0))));
        ExperimentResult io = new ExperimentResult("io<1>", "t", ALLOC.tables(), List.of(first, second),
                List.of("v"), List.of(), Map.of());

        String html = HtmlReport.render(new LabRun("m", "j", "", "s", 1,
                List.of(new Outcome(io, Outcome.Status.FAILED, 1), new Outcome(ALLOC, Outcome.Status.SKIPPED, 0))));

        assertThat(html).containsSubsequence(
                "<section class=\"experiment\" id=\"io&lt;1&gt;\">\n<h2>io&lt;1&gt;: t</h2>",
                "<p class=\"status\">failed in 1.0 s</p>", "<p class=\"verdict\">v</p>\n<figure><svg class=\"chart\""
                        + " data-experiment=\"io&lt;1&gt;\"", "class=\"title\">first</text>", "rotate(-90)\">ns</text>",
                "</svg>\n</figure>\n<figure><svg ", "class=\"title\">second</text>", "rotate(-90)\">ms</text>",
                "</svg>\n</figure>\n<table>", "</table>\n</section>\n",
                "<section class=\"experiment\" id=\"alloc\">", "<p class=\"status\">skipped in 0.0 s</p>");
        assertThat(html).doesNotContain("<script", "<link", "<img", "@import");
    }
}
