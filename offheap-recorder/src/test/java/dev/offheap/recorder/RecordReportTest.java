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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.suite.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordReportTest {
    private static final long MIB = 1 << 20;

    @TempDir
    Path dir;

    /** A leak: malloc grows 2 MiB a sample beside a flat heap, flagged from the fifth sample on. */
    static List<String> leak(int samples, long limit) {
        List<String> lines = new ArrayList<>();
        Instant t0 = Instant.parse("2026-11-28T10:00:00Z");
        for (int i = 0; i < samples; i++) {
            String line = TimelineTest.inspectLine(t0.plusSeconds(5L * i).toString(), 100 * MIB, (20 + 2L * i) * MIB, MIB,
                    i >= 4 ? new String[] {"growing-malloc"} : new String[0]);
            lines.add(line.replace("\"limit\":1073741824", "\"limit\":" + limit));
        }
        return lines;
    }

    @Test
    void writesOneSelfContainedPageWithTheChartTheLimitsTheTableAndTheFindings() throws Exception {
        Path record = Files.write(dir.resolve("leak.jsonl"), leak(20, 400 * MIB));
        Path html = dir.resolve("leak.html");
        assertThat(RecordReport.write(record, html)).isEqualTo(20);
        String page = Files.readString(html);
        assertThat(page).doesNotContain("<script", "<link", "<img", "@import");
        assertThat(page).contains("Memory of process 42 over time", "OpenJDK 64-Bit Server VM 21.0.5", "20 samples",
                "(1m 35s)", "Container limit: 400.0 MiB", "JVM ceilings (heap, direct buffers, code cache, metaspace when"
                + " bounded): 512.0 MiB");
        assertThat(page).as("the table: malloc from 20 to 58 MiB at 24 MiB/min")
                .containsPattern("malloc</td><td>20.0 MiB</td><td>58.0 MiB</td><td>\\+38.0 MiB</td><td>\\+24.00 MiB/min");
        assertThat(page).contains("2026-11-28T10:00:20Z</b> growing-malloc (warning)");
        assertThat(Pattern.compile("<polygon class=\"area\"").matcher(page).results().count()).isEqualTo(3);
        assertThat(page).contains("<g class=\"limit\">", "<g class=\"finding\" data-id=\"growing-malloc\"");
        assertThat(page).as("ceilings more than three times the data's top are said, not drawn")
                .doesNotContain("<g class=\"ceilings\">");
    }

    @Test
    void aLimitFarAboveTheDataIsSaidNotDrawnAndAnEmptyRecordIsRefused() throws Exception {
        String page = RecordReport.html(leak(3, 64L << 30), "far.jsonl");
        assertThat(page).contains("Container limit: 64.00 GiB").doesNotContain("<g class=\"limit\">");
        assertThat(page).contains("<h2>Findings</h2>\n<p>None in this record.</p>");
        String single = RecordReport.html(leak(1, 400 * MIB), "one.jsonl");
        assertThat(single).contains("1 samples", "(0m 00s)");
        Path empty = Files.writeString(dir.resolve("empty.jsonl"), "\nnot json\n");
        assertThatThrownBy(() -> RecordReport.write(empty, dir.resolve("x.html")))
                .hasMessageContaining("holds no sample (1 lines are not samples");
    }

    @Test
    void chromiumRendersTheStackedAreasTheLimitAndTheFindingMarks() throws Exception {
        Path record = Files.write(dir.resolve("leak.jsonl"), leak(30, 300 * MIB));
        Path html = dir.resolve("leak.html");
        RecordReport.write(record, html);
        String dom = Chromium.dumpDom(html);
        Matcher svg = Pattern.compile("<svg class=\"timeline\"[^>]*>(.*?)</svg>", Pattern.DOTALL).matcher(dom);
        assertThat(svg.find()).as("the chart in the DOM Chromium rendered").isTrue();
        String chart = svg.group(1);
        assertThat(Pattern.compile("<polygon class=\"area\" data-part=\"(\\w+)\"").matcher(chart).results()
                .map(m -> m.group(1)).toList()).containsExactly("heap", "malloc", "unexplained");
        assertThat(chart).contains("class=\"limit\"", "container limit 300.0 MiB", "class=\"working-set\"",
                "class=\"ceilings\"", "JVM ceilings 512.0 MiB");
        assertThat(Pattern.compile("<g class=\"finding\"").matcher(chart).results().count()).isEqualTo(1);
    }

    @Test
    void sizesDurationsAndChangesReadAsPeopleWriteThem() {
        assertThat(RecordReport.size(-1)).isEqualTo("n/a");
        assertThat(RecordReport.size(0)).isEqualTo("0.0 MiB");
        assertThat(RecordReport.size(1023L << 20)).isEqualTo("1023.0 MiB");
        assertThat(RecordReport.size(1L << 30)).isEqualTo("1.00 GiB");
        assertThat(RecordReport.escape("<a href=\"x\">&</a>")).isEqualTo("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
        List<String> hour = new ArrayList<>();
        hour.add(TimelineTest.inspectLine("2026-11-28T10:00:00Z", 300 * MIB, 50 * MIB, 0));
        hour.add(TimelineTest.inspectLine("2026-11-28T11:02:03Z", 200 * MIB, 50 * MIB, 0));
        String page = RecordReport.html(hour, "h");
        assertThat(page).contains("(1h 02m)", "heap</td><td>300.0 MiB</td><td>200.0 MiB</td><td>-100.0 MiB</td><td>-1.61 MiB/min",
                "RSS</td><td>350.0 MiB</td><td>250.0 MiB</td><td>-100.0 MiB</td>");
        String noRss = RecordReport.html(List.of(hour.get(0).replace("\"rss\":" + (350 * MIB), "\"rss\":null")), "n");
        assertThat(noRss).contains("RSS</td><td>n/a</td><td>n/a</td><td></td>");
        String minute = RecordReport.html(List.of(hour.get(0), TimelineTest.inspectLine("2026-11-28T10:59:59Z", 1, 1, 0)), "m");
        assertThat(minute).contains("(59m 59s)");
    }
}
