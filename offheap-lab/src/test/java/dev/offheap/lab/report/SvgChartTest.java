package dev.offheap.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.ExperimentResult.Series;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The report's bar charts. The plot is 570 x 270 pixels from (70, 30): a category's group is 570 / categories
 * wide, its bars share 80 % of it from 10 % in, and a bar's height is its share of the axis' top tick, the
 * first round step at or above the largest value.
 */
class SvgChartTest {
    private static final String OPEN = "<svg class=\"chart\" data-experiment=\"%s\""
            + " xmlns=\"http://www.w3.org/2000/svg\" width=\"820\" height=\"340\" viewBox=\"0 0 820 340\" role=\"img\">\n";

    private static String svg(Chart chart) {
        return SvgChart.render(chart, "ex").replace(System.lineSeparator(), "\n");
    }

    private static List<String> lines(String svg, String start) {
        return svg.lines().filter(l -> l.startsWith(start)).toList();
    }

    private static String tick(double y, String label) {
        return String.format(Locale.ROOT, "<line x1=\"70\" x2=\"640\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                + "<text x=\"64\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>", y, y, y + 4, label);
    }

    @Test
    void linearChartHasABarPerSeriesPerCategoryWithHeightsProportionalToValues() {
        Chart chart = new Chart("Req <s>", "req/s", false, List.of("a&b", "c"), List.of(
                new Series("s1 \"x\"", List.of(100.0, 55.0)), new Series("s2", List.of(Double.NaN, 0.001))));

        assertThat(SvgChart.render(chart, "ex<1>").replace(System.lineSeparator(), "\n"))
                .isEqualTo(OPEN.formatted("ex&lt;1&gt;") + """
                <text x="70" y="18" class="title">Req &lt;s&gt; (req/s)</text>
                <line x1="70" x2="640" y1="300.0" y2="300.0" class="grid"/><text x="64" y="304.0" class="tick" text-anchor="end">0</text>
                <line x1="70" x2="640" y1="246.0" y2="246.0" class="grid"/><text x="64" y="250.0" class="tick" text-anchor="end">20</text>
                <line x1="70" x2="640" y1="192.0" y2="192.0" class="grid"/><text x="64" y="196.0" class="tick" text-anchor="end">40</text>
                <line x1="70" x2="640" y1="138.0" y2="138.0" class="grid"/><text x="64" y="142.0" class="tick" text-anchor="end">60</text>
                <line x1="70" x2="640" y1="84.0" y2="84.0" class="grid"/><text x="64" y="88.0" class="tick" text-anchor="end">80</text>
                <line x1="70" x2="640" y1="30.0" y2="30.0" class="grid"/><text x="64" y="34.0" class="tick" text-anchor="end">100</text>
                <text x="212.5" y="318" class="tick" text-anchor="middle">a&amp;b</text>
                <rect class="bar" x="98.5" y="30.0" width="113.0" height="270.0" fill="#4e79a7"><title>s1 &quot;x&quot;, a&amp;b: 100 req/s</title></rect>
                <text x="497.5" y="318" class="tick" text-anchor="middle">c</text>
                <rect class="bar" x="383.5" y="151.5" width="113.0" height="148.5" fill="#4e79a7"><title>s1 &quot;x&quot;, c: 55 req/s</title></rect>
                <rect class="bar" x="497.5" y="299.0" width="113.0" height="1.0" fill="#f28e2b"><title>s2, c: 0.001 req/s</title></rect>
                <rect class="key" x="652" y="40" width="12" height="12" fill="#4e79a7"/><text x="670" y="50" class="legend">s1 &quot;x&quot;</text>
                <rect class="key" x="652" y="60" width="12" height="12" fill="#f28e2b"/><text x="670" y="70" class="legend">s2</text>
                </svg>
                """);
    }

    @Test
    void logChartHasATickPerPowerOfTenAndHeightsByDecade() {
        Chart chart = new Chart("Alloc", "ns", true, List.of("128 B", "16 MiB"), List.of(
                new Series("pool", List.of(100.0, 1000.0)), new Series("direct", List.of(10_000.0, 1_000_000.0))));

        String svg = svg(chart);

        assertThat(svg).contains("<text x=\"70\" y=\"18\" class=\"title\">Alloc (ns, log scale)</text>");
        assertThat(lines(svg, "<line")).containsExactly(tick(300, "100"), tick(232.5, "1k"), tick(165, "10k"),
                tick(97.5, "100k"), tick(30, "1M"));
        assertThat(lines(svg, "<rect class=\"bar\"")).containsExactly(
                "<rect class=\"bar\" x=\"98.5\" y=\"299.0\" width=\"113.0\" height=\"1.0\" fill=\"#4e79a7\">"
                        + "<title>pool, 128 B: 100 ns</title></rect>",
                "<rect class=\"bar\" x=\"212.5\" y=\"165.0\" width=\"113.0\" height=\"135.0\" fill=\"#f28e2b\">"
                        + "<title>direct, 128 B: 10k ns</title></rect>",
                "<rect class=\"bar\" x=\"383.5\" y=\"232.5\" width=\"113.0\" height=\"67.5\" fill=\"#4e79a7\">"
                        + "<title>pool, 16 MiB: 1k ns</title></rect>",
                "<rect class=\"bar\" x=\"497.5\" y=\"30.0\" width=\"113.0\" height=\"270.0\" fill=\"#f28e2b\">"
                        + "<title>direct, 16 MiB: 1M ns</title></rect>");
    }

    @Test
    void logChartOfOneValueSpansOneDecade() {
        String svg = svg(new Chart("t", "ms", true, List.of("a", "b"), List.of(new Series("s", List.of(10.0, 10.0)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(300, "10"), tick(30, "100"));
        assertThat(lines(svg, "<rect class=\"bar\"")).hasSize(2).allSatisfy(bar -> assertThat(bar)
                .contains("y=\"299.0\"", "height=\"1.0\""));
    }

    @Test
    void zeroAndNegativeValuesHaveNoBarAndDoNotMoveTheAxis() {
        String svg = svg(new Chart("t", "ms", true, List.of("a", "b", "c"),
                List.of(new Series("s", List.of(0.0, 10.0, -5.0)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(300, "10"), tick(30, "100"));
        assertThat(lines(svg, "<rect class=\"bar\"")).singleElement().asString().contains("<title>s, b: 10 ms</title>");
    }

    @Test
    void withoutAnyValueTheLinearAxisGoesToOneAndNoBarIsDrawn() {
        String svg = svg(new Chart("t", "ms", false, List.of("a"), List.of(new Series("s", List.of(Double.NaN)))));

        assertThat(lines(svg, "<line")).containsExactly(tick(300, "0"), tick(246, "0.2"), tick(192, "0.4"),
                tick(138, "0.6"), tick(84, "0.8"), tick(30, "1"));
        assertThat(svg).doesNotContain("class=\"bar\"").contains("class=\"legend\">s</text>");
    }

    @Test
    void withoutAnyValueTheLogAxisIsOneDecadeFromOne() {
        String svg = svg(new Chart("t", "ms", true, List.of("a"), List.of()));

        assertThat(lines(svg, "<line")).containsExactly(tick(300, "1"), tick(30, "10"));
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

        assertThat(svg).doesNotContain("class=\"bar\"", "text-anchor=\"middle\"").contains("class=\"key\"");
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
        assertThat(lines(svg, "<rect class=\"key\"").getLast()).isEqualTo("<rect class=\"key\" x=\"652\" y=\"200\""
                + " width=\"12\" height=\"12\" fill=\"#4e79a7\"/><text x=\"670\" y=\"210\" class=\"legend\">s8</text>");
    }

    @Test
    void barsAreAtLeastOnePixelWide() {
        // 300 categories: groups of 1.9 px, bars of 1.52 px, 1 px wide after the gap.
        List<String> categories = Collections.nCopies(300, "c");

        String svg = svg(new Chart("t", "ms", false, categories,
                List.of(new Series("s", Collections.nCopies(300, 1.0)))));

        assertThat(lines(svg, "<rect class=\"bar\"")).hasSize(300).allSatisfy(bar -> assertThat(bar)
                .contains("width=\"1.0\""));
        assertThat(Pattern.compile("x=\"(\\d+\\.\\d)\"").matcher(lines(svg, "<rect class=\"bar\"").get(1)).results()
                .map(m -> m.group(1)).toList()).containsExactly("72.1");
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
