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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Where the chart puts things: the plot spans x 90..1170 and y 30 (the top, 1.05 x the largest figure) to 390 (0). */
class TimelineChartTest {
    private static final long MIB = 1 << 20;
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    static Timeline.Point point(long seconds, long heap, long malloc, long limit, long workingSet, long ceilings,
            Finding... findings) {
        Map<String, Long> parts = new LinkedHashMap<>();
        parts.put("heap", heap);
        parts.put("malloc", malloc);
        return new Timeline.Point(T0.plusSeconds(seconds), heap + malloc, parts, limit, workingSet, ceilings, List.of(findings));
    }

    static Timeline timeline(Timeline.Point... points) {
        return new Timeline(List.of(points), List.of("heap", "malloc"), "vm", 1, "test", 0);
    }

    /** The points of a polygon or polyline, as x,y pairs. */
    static List<double[]> points(String svg, String start) {
        Matcher m = Pattern.compile(Pattern.quote(start) + "[^>]*points=\"([^\"]+)\"").matcher(svg);
        assertThat(m.find()).as(start).isTrue();
        List<double[]> xy = new ArrayList<>();
        for (String pair : m.group(1).trim().split(" ")) {
            String[] p = pair.split(",");
            xy.add(new double[] {Double.parseDouble(p[0]), Double.parseDouble(p[1])});
        }
        return xy;
    }

    @Test
    void stacksThePartsOverTimeInThePlot() {
        // top figure 200 MiB (stacked), yMax 210 MiB: 100 MiB sits at 390 - 360 * 100 / 210
        String svg = TimelineChart.svg(timeline(point(0, 100 * MIB, 50 * MIB, -1, 120 * MIB, -1),
                point(10, 100 * MIB, 100 * MIB, -1, 170 * MIB, -1)));
        List<double[]> heap = points(svg, "<polygon class=\"area\" data-part=\"heap\"");
        assertThat(heap).hasSize(4); // upper left to right, then lower right to left
        assertThat(heap.get(0)[0]).isEqualTo(90.0);
        assertThat(heap.get(1)[0]).isEqualTo(1170.0);
        assertThat(heap.get(0)[1]).isCloseTo(390 - 360 * 100.0 / 210, within(0.06));
        assertThat(heap.get(2)[1]).isEqualTo(390.0);
        assertThat(heap.get(3)[0]).isEqualTo(90.0);
        List<double[]> malloc = points(svg, "<polygon class=\"area\" data-part=\"malloc\"");
        assertThat(malloc.get(0)[1]).as("150 MiB stacked").isCloseTo(390 - 360 * 150.0 / 210, within(0.06));
        assertThat(malloc.get(1)[1]).as("200 MiB stacked").isCloseTo(390 - 360 * 200.0 / 210, within(0.06));
        assertThat(malloc.get(2)[1]).as("its bottom is heap's top").isEqualTo(heap.get(1)[1]);
        List<double[]> ws = points(svg, "<polyline class=\"working-set\"");
        assertThat(ws.get(1)[1]).isCloseTo(390 - 360 * 170.0 / 210, within(0.06));
        assertThat(svg).contains(">10:00:00<", ">10:00:05<", ">10:00:10<", "viewBox=\"0 0 1200 430\"");
        assertThat(svg).as("the y axis in steps of 50 MiB").contains(">50.0 MiB<", ">200.0 MiB<").doesNotContain(">250.0 MiB<");
    }

    @Test
    void drawsALimitUpToThreeTimesTheDataAndNotBeyond() {
        long top = 100 * MIB;
        String at = TimelineChart.svg(timeline(point(0, top, 0, 3 * top, -1, 3 * top)));
        assertThat(at).contains("<g class=\"limit\">", "<g class=\"ceilings\">");
        Matcher line = Pattern.compile("<g class=\"limit\"><line x1=\"90\" x2=\"1170\" y1=\"([0-9.]+)\"").matcher(at);
        assertThat(line.find()).isTrue();
        assertThat(Double.parseDouble(line.group(1))).as("the limit is the top figure: yMax is 1.05 x it")
                .isCloseTo(390 - 360 / 1.05, within(0.06));
        String beyond = TimelineChart.svg(timeline(point(0, top, 0, 3 * top + 1, -1, 3 * top + 1)));
        assertThat(beyond).doesNotContain("<g class=\"limit\">", "<g class=\"ceilings\">");
        assertThat(TimelineChart.svg(timeline(point(0, top, 0, 0, -1, 0)))).doesNotContain("class=\"limit\"", "working-set");
    }

    @Test
    void aSinglePointIsInTheMiddleAndFindingsAreMarkedWhereTheyAppear() {
        String one = TimelineChart.svg(timeline(point(0, MIB, MIB, -1, -1, -1)));
        assertThat(points(one, "<polygon class=\"area\" data-part=\"heap\"").get(0)[0]).isEqualTo(630.0);
        Finding f = new Finding("growing-malloc", "critical", "it <grows>");
        String marked = TimelineChart.svg(timeline(point(0, MIB, MIB, -1, -1, -1), point(5, MIB, MIB, -1, -1, -1, f),
                point(20, MIB, MIB, -1, -1, -1, f)));
        Matcher mark = Pattern.compile("<g class=\"finding\" data-id=\"growing-malloc\"><line x1=\"([0-9.]+)\"[^>]*stroke=\"(#[0-9a-f]+)\"")
                .matcher(marked);
        assertThat(mark.find()).isTrue();
        assertThat(Double.parseDouble(mark.group(1))).as("a quarter of the way").isEqualTo(360.0);
        assertThat(mark.group(2)).as("critical is red").isEqualTo("#d62728");
        assertThat(marked).contains("<title>growing-malloc: it &lt;grows&gt;</title>").containsOnlyOnce("class=\"finding\"");
        String warning = TimelineChart.svg(timeline(point(0, MIB, 0, -1, -1, -1, new Finding("a", "warning", "w")),
                point(1, MIB, 0, -1, -1, -1, new Finding("b", "info", "i"))));
        assertThat(warning).contains("stroke=\"#ff7f0e\" stroke-dasharray=\"2,3\"", "stroke=\"#555\" stroke-dasharray=\"2,3\"");
    }

    @Test
    void theLastLimitAndCeilingsAreTheLatestKnown() {
        List<Timeline.Point> points = List.of(point(0, 1, 1, 500, -1, 700), point(1, 1, 1, 400, -1, 0), point(2, 1, 1, -1, -1, -1));
        assertThat(TimelineChart.last(points, "limit")).isEqualTo(400);
        assertThat(TimelineChart.last(points, "ceilings")).isEqualTo(700);
        assertThat(TimelineChart.last(List.of(point(0, 1, 1, 0, -1, 1)), "limit")).isEqualTo(-1);
        assertThat(TimelineChart.last(List.of(point(0, 1, 1, 1, -1, 1)), "limit")).isEqualTo(1);
    }

    @Test
    void stepsAreOneTwoOrFiveTimesAPowerOfTenMiB() {
        assertThat(TimelineChart.niceStep(MIB) / MIB).isEqualTo(1.0);
        assertThat(TimelineChart.niceStep(1.5 * MIB) / MIB).isEqualTo(2.0);
        assertThat(TimelineChart.niceStep(2 * MIB) / MIB).isEqualTo(2.0);
        assertThat(TimelineChart.niceStep(2.5 * MIB) / MIB).isEqualTo(5.0);
        assertThat(TimelineChart.niceStep(5 * MIB) / MIB).isEqualTo(5.0);
        assertThat(TimelineChart.niceStep(6 * MIB) / MIB).isEqualTo(10.0);
        assertThat(TimelineChart.niceStep(42 * MIB) / MIB).isCloseTo(50.0, within(1e-9));
        assertThat(TimelineChart.niceStep(0.3 * MIB) / MIB).isCloseTo(0.5, within(1e-9));
    }
}
