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

import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Chart.Kind;
import dev.offheap.lab.ExperimentResult.Series;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The report's bar charts. The viewBox is 1200 wide (the page scales it) and the plot 1100 x 300 from (80, 40):
 * a category's group is 1100 / categories wide, its bars share 80 % of it from 10 % in, and a bar's height is its
 * share of the axis' top tick, the first round step at or above the largest value. The legend is under the
 * category labels, from 374 down, in rows of 22.
 */
class SvgChartTest {
    private static final String OPEN = "<svg class=\"chart\" data-experiment=\"%s\""
            + " xmlns=\"http://www.w3.org/2000/svg\" width=\"100%%\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\""
            + " font-size=\"13\" role=\"img\">\n";

    private static String svg(Chart chart) {
        return SvgChart.render(chart, "ex").replace(System.lineSeparator(), "\n");
    }

    private static List<String> lines(String svg, String start) {
        return svg.lines().filter(l -> l.startsWith(start)).toList();
    }

    private static String tick(double y, String label) {
        return String.format(Locale.ROOT, "<line x1=\"80\" x2=\"1180\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                + "<text x=\"72\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>", y, y, y + 4, label);
    }

    @Test
    void linearChartHasABarPerSeriesPerCategoryWithHeightsProportionalToValues() {
        Chart chart = new Chart("Req <s>", "req/s", false, List.of("a&b", "c"), List.of(
                new Series("s1 \"x\"", List.of(100.0, 55.0)), new Series("s2", List.of(Double.NaN, 0.001))));

        assertThat(SvgChart.render(chart, "ex<1>").replace(System.lineSeparator(), "\n"))
                .isEqualTo(OPEN.formatted("ex&lt;1&gt;", 1200, 404) + """
                <text x="80" y="24" class="title">Req &lt;s&gt;</text>
                <text class="axis" text-anchor="middle" transform="translate(16 190) rotate(-90)">req/s</text>
                <line x1="80" x2="1180" y1="340.0" y2="340.0" class="grid"/><text x="72" y="344.0" class="tick" text-anchor="end">0</text>
                <line x1="80" x2="1180" y1="280.0" y2="280.0" class="grid"/><text x="72" y="284.0" class="tick" text-anchor="end">20</text>
                <line x1="80" x2="1180" y1="220.0" y2="220.0" class="grid"/><text x="72" y="224.0" class="tick" text-anchor="end">40</text>
                <line x1="80" x2="1180" y1="160.0" y2="160.0" class="grid"/><text x="72" y="164.0" class="tick" text-anchor="end">60</text>
                <line x1="80" x2="1180" y1="100.0" y2="100.0" class="grid"/><text x="72" y="104.0" class="tick" text-anchor="end">80</text>
                <line x1="80" x2="1180" y1="40.0" y2="40.0" class="grid"/><text x="72" y="44.0" class="tick" text-anchor="end">100</text>
                <text x="355.0" y="360" class="tick" text-anchor="middle">a&amp;b</text>
                <text x="905.0" y="360" class="tick" text-anchor="middle">c</text>
                <rect class="bar" x="135.0" y="40.0" width="219.0" height="300.0" fill="#4e79a7"><title>s1 &quot;x&quot;, a&amp;b: 100 req/s</title></rect>
                <rect class="bar" x="685.0" y="175.0" width="219.0" height="165.0" fill="#4e79a7"><title>s1 &quot;x&quot;, c: 55 req/s</title></rect>
                <rect class="bar" x="905.0" y="339.0" width="219.0" height="1.0" fill="#f28e2b"><title>s2, c: 0.001 req/s</title></rect>
                <rect class="key" x="80" y="374" width="12" height="12" fill="#4e79a7"/><text x="98" y="385" class="legend">s1 &quot;x&quot;</text>
                <rect class="key" x="175" y="374" width="12" height="12" fill="#f28e2b"/><text x="193" y="385" class="legend">s2</text>
                </svg>
                """);
    }

    @Test
    void theUnitIsWrittenOnceAlongTheValueAxisNotAfterTheTitle() {
        String svg = svg(new Chart("Latency (lower is better)", "ms", false, List.of("a"),
                List.of(new Series("p99", List.of(2.0)))));

        assertThat(lines(svg, "<text x=\"80\" y=\"24\"")).containsExactly(
                "<text x=\"80\" y=\"24\" class=\"title\">Latency (lower is better)</text>");
        assertThat(svg.replaceAll("<title>[^<]*</title>", "")).containsOnlyOnce("ms")
                .contains("transform=\"translate(16 190) rotate(-90)\">ms</text>");
    }

    @Test
    void logChartHasATickPerPowerOfTenAndHeightsByDecade() {
        Chart chart = new Chart("Alloc", "ns", true, List.of("128 B", "16 MiB"), List.of(
                new Series("pool", List.of(100.0, 1000.0)), new Series("direct", List.of(10_000.0, 1_000_000.0))));

        String svg = svg(chart);

        assertThat(svg).contains("<text x=\"80\" y=\"24\" class=\"title\">Alloc</text>",
                "<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(16 190) rotate(-90)\">ns, log scale"
                        + "</text>");
        assertThat(lines(svg, "<line")).containsExactly(tick(340, "100"), tick(265, "1k"), tick(190, "10k"),
                tick(115, "100k"), tick(40, "1M"));
        assertThat(lines(svg, "<rect class=\"bar\"")).containsExactly(
                "<rect class=\"bar\" x=\"135.0\" y=\"339.0\" width=\"219.0\" height=\"1.0\" fill=\"#4e79a7\">"
                        + "<title>pool, 128 B: 100 ns</title></rect>",
                "<rect class=\"bar\" x=\"355.0\" y=\"190.0\" width=\"219.0\" height=\"150.0\" fill=\"#f28e2b\">"
                        + "<title>direct, 128 B: 10k ns</title></rect>",
                "<rect class=\"bar\" x=\"685.0\" y=\"265.0\" width=\"219.0\" height=\"75.0\" fill=\"#4e79a7\">"
                        + "<title>pool, 16 MiB: 1k ns</title></rect>",
                "<rect class=\"bar\" x=\"905.0\" y=\"40.0\" width=\"219.0\" height=\"300.0\" fill=\"#f28e2b\">"
                        + "<title>direct, 16 MiB: 1M ns</title></rect>");
    }

    @Test
    void logChartOfOneValueSpansOneDecade() {
        String svg = svg(new Chart("t", "ms", true, List.of("a", "b"), List.of(new Series("s", List.of(10.0, 10.0)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(340, "10"), tick(40, "100"));
        assertThat(lines(svg, "<rect class=\"bar\"")).hasSize(2).allSatisfy(bar -> assertThat(bar)
                .contains("y=\"339.0\"", "height=\"1.0\""));
    }

    @Test
    void zeroAndNegativeValuesHaveNoBarAndDoNotMoveTheAxis() {
        String svg = svg(new Chart("t", "ms", true, List.of("a", "b", "c"),
                List.of(new Series("s", List.of(0.0, 10.0, -5.0)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(340, "10"), tick(40, "100"));
        assertThat(lines(svg, "<rect class=\"bar\"")).singleElement().asString().contains("<title>s, b: 10 ms</title>");
    }

    @Test
    void withoutAnyValueTheLinearAxisGoesToOneAndNoBarIsDrawn() {
        String svg = svg(new Chart("t", "ms", false, List.of("a"), List.of(new Series("s", List.of(Double.NaN)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(340, "0"), tick(280, "0.2"), tick(220, "0.4"),
                tick(160, "0.6"), tick(100, "0.8"), tick(40, "1"));
        assertThat(svg).doesNotContain("class=\"bar\"").contains("class=\"legend\">s</text>");
    }

    @Test
    void withoutAnyValueTheLogAxisIsOneDecadeFromOne() {
        String svg = svg(new Chart("t", "ms", true, List.of("a"), List.of()));

        assertThat(lines(svg, "<line")).containsExactly(tick(340, "1"), tick(40, "10"));
        assertThat(svg).doesNotContain("class=\"bar\"", "class=\"key\"");
    }

    @Test
    void missingValuesHaveNoBar() {
        String svg = svg(new Chart("t", "ms", false, List.of("a", "b", "c"),
                List.of(new Series("s", Arrays.asList(1.0, null)))));

        assertThat(lines(svg, "<rect class=\"bar\"")).singleElement().asString().contains("<title>s, a: 1 ms</title>");
        assertThat(lines(svg, "<text x=")).filteredOn(l -> l.contains("text-anchor=\"middle\"")).hasSize(3);
    }

    @Test
    void aChartWithoutCategoriesHasOnlyItsAxisAndLegend() {
        String svg = svg(new Chart("t", "ms", false, List.of(), List.of(new Series("s", List.of()))));

        assertThat(svg).doesNotContain("class=\"bar\"", "class=\"tick\" text-anchor=\"middle\"")
                .contains("class=\"key\"");
    }

    @Test
    void colorsComeBackAfterEightSeries() {
        List<Series> nine = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nine.add(new Series("s" + i, List.of(1.0)));
        }

        String svg = svg(new Chart("t", "ms", false, List.of("a"), nine));

        assertThat(lines(svg, "<rect class=\"bar\"")).extracting(l -> l.replaceAll(".*fill=\"([^\"]+)\".*", "$1"))
                .containsExactly("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#edc948",
                        "#9c755f", "#4e79a7");
        assertThat(lines(svg, "<rect class=\"key\"").getLast()).isEqualTo("<rect class=\"key\" x=\"584\" y=\"374\""
                + " width=\"12\" height=\"12\" fill=\"#4e79a7\"/><text x=\"602\" y=\"385\" class=\"legend\">s8</text>");
    }

    @Test
    void legendNamesAreWholeUnderThePlotInEqualColumnsAsManyAsFit() {
        List<String> names = List.of("seed 000 (AWS m5.large, JDK 13)", "this machine",
                "offheap pool, never released, budget 32 MiB", "direct, -Xmx512m -XX:MaxDirectMemorySize=32m");

        String svg = svg(new Chart("t", "ms", false, List.of("a"),
                names.stream().map(n -> new Series(n, List.of(1.0))).toList()));

        // The longest name, 44 characters, is measured 355 wide: columns of 401 from the plot's left, two fit.
        assertThat(svg).startsWith(OPEN.formatted("ex", 1200, 426));
        assertThat(lines(svg, "<rect class=\"key\"")).containsExactly(
                "<rect class=\"key\" x=\"80\" y=\"374\" width=\"12\" height=\"12\" fill=\"#4e79a7\"/>"
                        + "<text x=\"98\" y=\"385\" class=\"legend\">seed 000 (AWS m5.large, JDK 13)</text>",
                "<rect class=\"key\" x=\"481\" y=\"374\" width=\"12\" height=\"12\" fill=\"#f28e2b\"/>"
                        + "<text x=\"499\" y=\"385\" class=\"legend\">this machine</text>",
                "<rect class=\"key\" x=\"80\" y=\"396\" width=\"12\" height=\"12\" fill=\"#59a14f\"/>"
                        + "<text x=\"98\" y=\"407\" class=\"legend\">offheap pool, never released, budget 32 MiB"
                        + "</text>",
                "<rect class=\"key\" x=\"481\" y=\"396\" width=\"12\" height=\"12\" fill=\"#e15759\"/>"
                        + "<text x=\"499\" y=\"407\" class=\"legend\">direct, -Xmx512m -XX:MaxDirectMemorySize=32m"
                        + "</text>");
    }

    @Test
    void legendRowsAreFilledEvenly() {
        List<Series> six = List.of("offheap pool", "Netty pooled", "Arena.ofConfined()", "allocate", "allocateDirect",
                "allocate, TLAB off").stream().map(n -> new Series(n, List.of(1.0))).toList();

        String svg = svg(new Chart("t", "ns", true, List.of("128 B"), six));

        // Five columns of 192 would fit: two rows of three instead of five and one.
        assertThat(lines(svg, "<rect class=\"key\""))
                .extracting(l -> l.replaceAll("^<rect class=\"key\" x=\"(\\d+)\" y=\"(\\d+)\".*", "$1 $2"))
                .containsExactly("80 374", "272 374", "464 374", "80 396", "272 396", "464 396");
    }

    @Test
    void aNameWiderThanThePlotWidensTheChartInsteadOfBeingCut() {
        String name = "n".repeat(149);

        String svg = svg(new Chart("t", "ms", false, List.of("a"), List.of(new Series(name, List.of(1.0)))));

        // 149 characters measured 1201 wide, from 98 (after the key) to 1299, and 20 to spare.
        assertThat(svg).startsWith(OPEN.formatted("ex", 1319, 404)).contains("class=\"legend\">" + name + "</text>")
                .contains("<line x1=\"80\" x2=\"1299\" y1=\"40.0\"");
    }

    @Test
    void barsAreAtLeastOnePixelWide() {
        // 600 categories: groups of 1.83 px, bars of 1.47 px, 1 px wide after the gap.
        List<String> categories = Collections.nCopies(600, "c");

        String svg = svg(new Chart("t", "ms", false, categories,
                List.of(new Series("s", Collections.nCopies(600, 1.0)))));

        assertThat(lines(svg, "<rect class=\"bar\"")).hasSize(600).allSatisfy(bar -> assertThat(bar)
                .contains("width=\"1.0\""));
        assertThat(Pattern.compile("x=\"(\\d+\\.\\d)\"").matcher(lines(svg, "<rect class=\"bar\"").get(1)).results()
                .map(m -> m.group(1)).toList()).containsExactly("82.0");
    }

    @Test
    void aTimeSeriesIsALinePerSeriesThroughTheCategoriesCentresWithoutBars() {
        Chart chart = new Chart("RSS over time", "MiB", false, List.of("0 s", "1 s", "2 s"), List.of(
                new Series("direct", List.of(10.0, 20.0, 40.0)), new Series("pool", List.of(10.0, 10.0, 10.0))),
                Kind.LINES);

        String svg = svg(chart);

        // Groups of 366.7 from 80, the axis up to 40: 10 is 75 above the bottom at 340.
        assertThat(lines(svg, "<polyline")).containsExactly(
                "<polyline class=\"line\" points=\"263.3,265.0 630.0,190.0 996.7,40.0\" fill=\"none\""
                        + " stroke=\"#4e79a7\" stroke-width=\"2.5\"/>",
                "<polyline class=\"line\" points=\"263.3,265.0 630.0,265.0 996.7,265.0\" fill=\"none\""
                        + " stroke=\"#f28e2b\" stroke-width=\"2.5\"/>");
        assertThat(lines(svg, "<circle class=\"point\"")).hasSize(6).first().isEqualTo("<circle class=\"point\""
                + " cx=\"263.3\" cy=\"265.0\" r=\"3.5\" fill=\"#4e79a7\"><title>direct, 0 s: 10 MiB</title></circle>");
        assertThat(svg).doesNotContain("<rect");
        assertThat(lines(svg, "<line class=\"key\"")).containsExactly(
                "<line class=\"key\" x1=\"80\" x2=\"92\" y1=\"380\" y2=\"380\" stroke=\"#4e79a7\""
                        + " stroke-width=\"3\"/><text x=\"98\" y=\"385\" class=\"legend\">direct</text>",
                "<line class=\"key\" x1=\"175\" x2=\"187\" y1=\"380\" y2=\"380\" stroke=\"#f28e2b\""
                        + " stroke-width=\"3\"/><text x=\"193\" y=\"385\" class=\"legend\">pool</text>");
    }

    @Test
    void aLineBreaksWhereAValueIsMissingAndALoneValueIsADot() {
        Chart chart = new Chart("t", "MiB", false, List.of("a", "b", "c", "d", "e", "f", "g"), List.of(
                new Series("s", Arrays.asList(10.0, 20.0, Double.NaN, 30.0, 40.0, null, 5.0))), Kind.LINES);

        String svg = svg(chart);

        assertThat(lines(svg, "<polyline")).hasSize(2).extracting(l -> l.replaceAll(".*points=\"([^\"]+)\".*", "$1"))
                .containsExactly("158.6,265.0 315.7,190.0", "630.0,115.0 787.1,40.0");
        assertThat(lines(svg, "<circle class=\"point\"")).extracting(l -> l.replaceAll(".*<title>(.*)</title>.*", "$1"))
                .containsExactly("s, a: 10 MiB", "s, b: 20 MiB", "s, d: 30 MiB", "s, e: 40 MiB", "s, g: 5 MiB");
    }

    @Test
    void axisNumbersAreShortWithThreeSignificantFigures() {
        assertThat(SvgChart.number(0)).isEqualTo("0");
        assertThat(SvgChart.number(0.5)).isEqualTo("0.5");
        assertThat(SvgChart.number(0.001234)).isEqualTo("0.00123");
        assertThat(SvgChart.number(12)).isEqualTo("12");
        assertThat(SvgChart.number(999)).isEqualTo("999");
        assertThat(SvgChart.number(1000)).isEqualTo("1k");
        assertThat(SvgChart.number(1234)).isEqualTo("1.23k");
        assertThat(SvgChart.number(999_000)).isEqualTo("999k");
        assertThat(SvgChart.number(1e6)).isEqualTo("1M");
        assertThat(SvgChart.number(3_520_000)).isEqualTo("3.52M");
        assertThat(SvgChart.number(1e9)).isEqualTo("1G");
        assertThat(SvgChart.number(2.5e9)).isEqualTo("2.5G");
    }
}
