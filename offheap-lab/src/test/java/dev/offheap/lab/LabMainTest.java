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

package dev.offheap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Chromium;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole lab in its tiny scale ({@code offheap lab --tiny}), run once: its console output, its JSON, and
 * its HTML report as headless Chromium renders it, with every experiment's charts.
 */
class LabMainTest {
    private static final List<String> RUN = List.of("alloc", "io", "order", "store", "gc", "server");

    @TempDir
    static Path dir;

    private static int exitCode;
    private static String console;
    private static Path out;

    @BeforeAll
    static void runTheLab() {
        out = dir.resolve("report");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        exitCode = LabMain.run(List.of("--tiny", "--only", String.join(",", RUN), "--out", out.toString()),
                new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8));
        console = stdout.toString(StandardCharsets.UTF_8) + stderr.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsEveryExperimentAskedFor() {
        assertThat(exitCode).as(console).isZero();
        assertThat(console).contains("[1/6] alloc:", "[2/6] io:", "[3/6] order:", "[4/6] store:", "[5/6] gc:",
                "[6/6] server:");
        assertThat(console).contains("alloc: ok", "io: ok", "order: ok", "store: ok", "gc: ok", "server: ok");
        assertThat(console).contains("this machine", "vs best", "=> On this machine");
        assertThat(console).containsPattern("alloc +\\d+%");
    }

    @Test
    void writesParseableJsonWithEveryExperiment() throws IOException {
        Object parsed = MiniJson.parse(Files.readString(out.resolve("results.json")));

        assertThat(parsed).isInstanceOf(Map.class);
        Map<?, ?> root = (Map<?, ?>) parsed;
        assertThat(root.keySet().stream().map(String::valueOf).toList()).contains("machine", "jdk", "options", "experiments");
        List<?> experiments = (List<?>) root.get("experiments");
        assertThat(experiments.stream().map(e -> ((Map<?, ?>) e).get("name")).toList()).isEqualTo(RUN);
        assertThat(experiments).allSatisfy(e -> {
            Map<?, ?> experiment = (Map<?, ?>) e;
            assertThat(experiment.get("status")).isEqualTo("ok");
            assertThat((List<?>) experiment.get("charts")).isNotEmpty();
            assertThat((List<?>) experiment.get("tables")).isNotEmpty();
        });
    }

    @Test
    void htmlReportShowsOneChartWithBarsPerExperimentInChromium() throws Exception {
        Path html = out.resolve("report.html");
        String source = Files.readString(html);
        assertThat(source).as("self-contained").contains("Machine:", "JDK:", "Options:")
                .doesNotContain("<script", "<link", "<img", "@import");

        String dom = Chromium.dumpDom(html);
        Map<String, Integer> bars = barsPerChart(dom);
        assertThat(bars.keySet()).as("charts in the DOM Chromium rendered").containsExactlyElementsOf(RUN);
        assertThat(bars).allSatisfy((name, count) -> assertThat(count).as("bars of " + name).isPositive());
    }

    @Test
    void aBadOptionIsRefusedWithAClearMessage() {
        assertRefused(List.of("--fast"), "unknown option '--fast'");
        assertRefused(List.of("--only", "alloc,nope"), "unknown experiment 'nope' in --only; known: alloc, io");
        assertRefused(List.of("--only"), "--only needs a list of experiments");
        assertRefused(List.of("--quick", "--full"), "choose one of --quick, --full and --tiny");
        assertRefused(List.of("--out"), "--out needs a directory");
        assertRefused(List.of("alloc"), "unexpected argument 'alloc' (experiments are chosen with --only NAME,...)");
    }

    private static void assertRefused(List<String> args, String message) {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code = LabMain.run(args, new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        assertThat(code).as("exit code of %s", args).isEqualTo(2);
        assertThat(stderr.toString(StandardCharsets.UTF_8)).startsWith("offheap lab: " + message).contains("Usage:");
        assertThat(stdout.toString(StandardCharsets.UTF_8)).as("nothing runs").isEmpty();
    }

    /** The experiment of each chart in document order, with its number of bars. */
    static Map<String, Integer> barsPerChart(String dom) {
        Map<String, Integer> bars = new LinkedHashMap<>();
        Matcher svg = Pattern.compile("<svg[^>]*data-experiment=\"([^\"]+)\"[^>]*>(.*?)</svg>", Pattern.DOTALL)
                .matcher(dom);
        while (svg.find()) {
            bars.merge(svg.group(1), (int) Pattern.compile("<rect class=\"bar\"").matcher(svg.group(2)).results().count(),
                    Integer::sum);
        }
        return bars;
    }
}
