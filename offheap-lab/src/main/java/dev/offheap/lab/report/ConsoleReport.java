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
import dev.offheap.lab.Outcome;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * Prints an experiment's outcome: its tables (without the columns where nothing was measured, named under the
 * table), then its verdicts and notes.
 */
public final class ConsoleReport {
    private ConsoleReport() {}

    public static void print(Outcome outcome, PrintStream out) {
        var result = outcome.result();
        out.printf(Locale.ROOT, "%s: %s in %.1f s%n", result.name(),
                outcome.status().name().toLowerCase(Locale.ROOT), outcome.seconds());
        for (Table table : result.tables()) {
            ShownTable shown = ShownTable.of(table);
            out.println();
            out.println("  " + table.title());
            printTable(shown.table(), out);
            shown.leftOut().ifPresent(note -> out.println("  " + note));
        }
        if (!result.verdicts().isEmpty()) {
            out.println();
        }
        for (String verdict : result.verdicts()) {
            out.println("  => " + verdict);
        }
        for (String note : result.notes()) {
            out.println("  note: " + note);
        }
        out.println();
        out.flush();
    }

    static void printTable(Table table, PrintStream out) {
        int[] widths = new int[table.columns().size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = table.columns().get(c).length();
            for (List<String> row : table.rows()) {
                if (c < row.size()) {
                    widths[c] = Math.max(widths[c], row.get(c).length());
                }
            }
        }
        printRow(table.columns(), widths, out);
        StringBuilder rule = new StringBuilder("  ");
        for (int w : widths) {
            rule.append("-".repeat(w)).append("  ");
        }
        out.println(rule.toString().stripTrailing());
        for (List<String> row : table.rows()) {
            printRow(row, widths, out);
        }
    }

    private static void printRow(List<String> cells, int[] widths, PrintStream out) {
        StringBuilder s = new StringBuilder("  ");
        for (int c = 0; c < widths.length; c++) {
            String cell = c < cells.size() ? cells.get(c) : "";
            s.append(cell).append(" ".repeat(widths[c] - cell.length() + 2));
        }
        out.println(s.toString().stripTrailing());
    }
}
