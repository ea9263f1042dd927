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

import java.util.List;
import java.util.Map;

/**
 * What an experiment found: tables for the console and the report, charts for the report, verdicts in plain
 * words, notes (what was skipped and why, the options used), and raw figures for the JSON.
 */
public record ExperimentResult(String name, String title, List<Table> tables, List<Chart> charts,
        List<String> verdicts, List<String> notes, Map<String, Object> raw) {

    /**
     * A table. Rows are cells as text, already formatted. By convention the columns include the seed's
     * published figure (with its machine and JDK), this machine's figure, and the ratio to the best strategy.
     */
    public record Table(String title, List<String> columns, List<List<String>> rows) {}

    /**
     * A chart over categories (x axis): a group per category with a bar per series or, for a time series whose
     * categories are points in time, a line per series through them.
     */
    public record Chart(String title, String unit, boolean logScale, List<String> categories, List<Series> series,
            Kind kind) {
        public enum Kind { BARS, LINES }

        /** A grouped bar chart. */
        public Chart(String title, String unit, boolean logScale, List<String> categories, List<Series> series) {
            this(title, unit, logScale, categories, series, Kind.BARS);
        }
    }

    /** One series of a chart: a value per category (NaN where there is none). */
    public record Series(String name, List<Double> values) {}
}
