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

import dev.offheap.lab.ExperimentResult.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the console and the HTML report show of a table: the columns with a figure in at least one row, each row
 * cut or padded to them, and a note naming the columns left out because nothing was measured there (wrk's
 * columns when wrk is not installed, say).
 */
record ShownTable(Table table, Optional<String> leftOut) {
    /**
     * The cells of a figure that was not measured: empty, and the experiments' dashes, "-" and
     * {@link dev.offheap.lab.experiment.Cells#NONE} (written out: the experiments use the reports, not the reverse).
     */
    private static final Set<String> NOTHING = Set.of("", "-", "—");

    static ShownTable of(Table table) {
        List<Integer> shown = new ArrayList<>();
        List<String> empty = new ArrayList<>();
        for (int c = 0; c < table.columns().size(); c++) {
            if (table.rows().isEmpty() || measured(table, c)) {
                shown.add(c);
            } else {
                empty.add(table.columns().get(c));
            }
        }
        List<List<String>> rows = table.rows().stream().map(row -> shown.stream().map(c -> cell(row, c)).toList())
                .toList();
        return new ShownTable(new Table(table.title(), shown.stream().map(table.columns()::get).toList(), rows),
                empty.isEmpty() ? Optional.empty() : Optional.of(note(empty)));
    }

    private static boolean measured(Table table, int column) {
        return table.rows().stream().anyMatch(row -> !NOTHING.contains(cell(row, column).strip()));
    }

    private static String cell(List<String> row, int column) {
        return column < row.size() ? row.get(column) : "";
    }

    private static String note(List<String> columns) {
        return (columns.size() == 1 ? "column" : "columns") + " left out, no figure in any row: "
                + columns.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(", "));
    }
}
