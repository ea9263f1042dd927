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
import dev.offheap.lab.MiniJson;
import dev.offheap.lab.Outcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** results.json: the run, then each experiment's status, tables, charts, verdicts, notes and raw figures. */
class JsonReportTest {
    private static final ExperimentResult ALLOC;

    static {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("unit", "ns/op");
        raw.put("scores", Arrays.asList(24.0, Double.NaN));
        ALLOC = new ExperimentResult("alloc", "Get \"and\" give back <&>",
                List.of(new Table("t", List.of("size", "vs best"), List.of(List.of("128 B", "1.0x (best)")))),
                List.of(new Chart("c", "ns", true, List.of("128 B", "1 KiB"),
                        List.of(new Series("allocate", Arrays.asList(24.0, Double.NaN))))),
                List.of("allocate is cheapest"), List.of("a note\non two lines"), raw);
    }

    private static Map<?, ?> parse(LabRun run) {
        return (Map<?, ?>) MiniJson.parse(JsonReport.render(run));
    }

    @Test
    void theRunComesFirstThenTheExperiments() {
        Map<?, ?> root = parse(new LabRun("AMD EPYC, 2 CPUs", "Temurin 25", "--tiny", "2025-06-01T10:00:00Z", 12.5,
                List.of()));

        assertThat(List.copyOf(root.keySet())).isEqualTo(List.of("schemaVersion", "machine", "jdk", "options",
                "started", "seconds", "experiments"));
        assertThat(root.get("schemaVersion")).isEqualTo(2.0);
        assertThat(root.get("machine")).isEqualTo("AMD EPYC, 2 CPUs");
        assertThat(root.get("jdk")).isEqualTo("Temurin 25");
        assertThat(root.get("options")).isEqualTo("--tiny");
        assertThat(root.get("started")).isEqualTo("2025-06-01T10:00:00Z");
        assertThat(root.get("seconds")).isEqualTo(12.5);
        assertThat(root.get("experiments")).isEqualTo(List.of());
    }

    @Test
    void anExperimentHoldsEverythingItFoundWithNaNAsNull() {
        Map<?, ?> root = parse(new LabRun("m", "j", "o", "s", 1, List.of(new Outcome(ALLOC, Outcome.Status.OK, 1.25))));
        Map<?, ?> alloc = (Map<?, ?>) ((List<?>) root.get("experiments")).getFirst();

        assertThat(List.copyOf(alloc.keySet())).isEqualTo(List.of("name", "title", "status", "seconds", "tables",
                "charts", "verdicts", "notes", "raw"));
        assertThat(alloc.get("name")).isEqualTo("alloc");
        assertThat(alloc.get("title")).isEqualTo("Get \"and\" give back <&>");
        assertThat(alloc.get("status")).isEqualTo("ok");
        assertThat(alloc.get("seconds")).isEqualTo(1.25);
        assertThat(alloc.get("tables")).isEqualTo(List.of(Map.of("title", "t", "columns", List.of("size", "vs best"),
                "rows", List.of(List.of("128 B", "1.0x (best)")))));
        assertThat(alloc.get("charts")).isEqualTo(List.of(Map.of("title", "c", "unit", "ns", "logScale", true,
                "kind", "bars", "categories", List.of("128 B", "1 KiB"),
                "series", List.of(Map.of("name", "allocate", "values", Arrays.asList(24.0, null))))));
        assertThat(alloc.get("verdicts")).isEqualTo(List.of("allocate is cheapest"));
        assertThat(alloc.get("notes")).isEqualTo(List.of("a note\non two lines"));
        assertThat(alloc.get("raw")).isEqualTo(Map.of("unit", "ns/op", "scores", Arrays.asList(24.0, null)));
    }

    @Test
    void statusesAreLowerCaseAndAMissingRawIsAnEmptyObject() {
        ExperimentResult skipped = new ExperimentResult("server", "s", List.of(), List.of(), List.of(),
                List.of("skipped: no port"), null);

        Map<?, ?> root = parse(new LabRun("m", "j", "o", "s", 1, List.of(
                new Outcome(skipped, Outcome.Status.SKIPPED, 0), new Outcome(ALLOC, Outcome.Status.FAILED, 2))));

        List<?> experiments = (List<?>) root.get("experiments");
        assertThat(experiments).hasSize(2);
        Map<?, ?> server = (Map<?, ?>) experiments.get(0);
        assertThat(server.get("status")).isEqualTo("skipped");
        assertThat(server.get("raw")).isEqualTo(Map.of());
        assertThat(server.get("tables")).isEqualTo(List.of());
        assertThat(server.get("charts")).isEqualTo(List.of());
        assertThat(((Map<?, ?>) experiments.get(1)).get("status")).isEqualTo("failed");
    }
}
