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
import dev.offheap.lab.LabRun;
import dev.offheap.lab.Outcome;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The results of a lab run as JSON, numbers as numbers in base units; docs/lab-results.md describes the schema.
 */
public final class JsonReport {
    /** Raised whenever a field changes meaning or goes away. */
    public static final int SCHEMA_VERSION = 2;

    private JsonReport() {}

    public static String render(LabRun run) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schemaVersion", SCHEMA_VERSION);
        root.put("machine", run.machine());
        root.put("jdk", run.jdk());
        root.put("options", run.options());
        root.put("started", run.started());
        root.put("seconds", run.seconds());
        root.put("experiments", run.outcomes().stream().map(JsonReport::experiment).toList());
        return Json.write(root);
    }

    private static Map<String, Object> experiment(Outcome outcome) {
        ExperimentResult r = outcome.result();
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("name", r.name());
        e.put("title", r.title());
        e.put("status", outcome.status().name().toLowerCase(Locale.ROOT));
        e.put("seconds", outcome.seconds());
        e.put("tables", r.tables().stream().map(t -> {
            Map<String, Object> table = new LinkedHashMap<>();
            table.put("title", t.title());
            table.put("columns", t.columns());
            table.put("rows", t.rows());
            return table;
        }).toList());
        e.put("charts", r.charts().stream().map(c -> {
            Map<String, Object> chart = new LinkedHashMap<>();
            chart.put("title", c.title());
            chart.put("unit", c.unit());
            chart.put("logScale", c.logScale());
            chart.put("kind", c.kind().name().toLowerCase(Locale.ROOT));
            chart.put("categories", c.categories());
            chart.put("series", c.series().stream().map(s -> {
                Map<String, Object> series = new LinkedHashMap<>();
                series.put("name", s.name());
                series.put("values", s.values());
                return series;
            }).toList());
            return chart;
        }).toList());
        e.put("verdicts", r.verdicts());
        e.put("notes", r.notes());
        e.put("raw", r.raw() == null ? Map.of() : r.raw());
        return e;
    }
}
