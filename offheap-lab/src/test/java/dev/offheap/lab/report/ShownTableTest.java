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

import dev.offheap.lab.ExperimentResult.Table;
import dev.offheap.lab.experiment.Cells;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The reports leave out the columns where no row has a figure, and say so. */
class ShownTableTest {
    @Test
    void columnsWithoutAFigureInAnyRowAreLeftOutAndNamed() {
        Table server = new Table("Static file", List.of("strategy", "req/s", "wrk req/s", "wrk p99 ms"), List.of(
                List.of("heap", "2100", Cells.NONE, Cells.NONE), List.of("pool", "2648", Cells.NONE, Cells.NONE)));

        ShownTable shown = ShownTable.of(server);

        assertThat(shown.table()).isEqualTo(new Table("Static file", List.of("strategy", "req/s"),
                List.of(List.of("heap", "2100"), List.of("pool", "2648"))));
        assertThat(shown.leftOut()).hasValue("columns left out, no figure in any row: \"wrk req/s\", \"wrk p99 ms\"");
    }

    @Test
    void emptyCellsHyphensAndDashesAreNothingAndOneFigureKeepsAColumn() {
        Table table = new Table("t", List.of("size", "seed", "blank", "this machine"), List.of(
                List.of("128 B", "", " ", "-"), List.of("", "24 ns", "—", "—"), List.of("16 MiB", "-", "", "1.0 ms")));

        ShownTable shown = ShownTable.of(table);

        assertThat(shown.table().columns()).containsExactly("size", "seed", "this machine");
        assertThat(shown.table().rows()).containsExactly(List.of("128 B", "", "-"), List.of("", "24 ns", "—"),
                List.of("16 MiB", "-", "1.0 ms"));
        assertThat(shown.leftOut()).hasValue("column left out, no figure in any row: \"blank\"");
    }

    @Test
    void rowsAreCutOrPaddedToTheColumnsAndMissingCellsAreNothing() {
        Table table = new Table("t", List.of("a", "b", "c"), List.of(List.of("1", "", "", "extra"), List.of("2")));

        ShownTable shown = ShownTable.of(table);

        assertThat(shown.table().rows()).containsExactly(List.of("1"), List.of("2"));
        assertThat(shown.leftOut()).hasValue("columns left out, no figure in any row: \"b\", \"c\"");
    }

    @Test
    void aTableWithAFigureInEveryColumnOrWithoutRowsIsShownWhole() {
        Table full = new Table("t", List.of("a", "b"), List.of(List.of("1", ""), List.of("", "2")));
        Table header = new Table("t", List.of("a", "b"), List.of());

        assertThat(ShownTable.of(full)).isEqualTo(new ShownTable(full, Optional.empty()));
        assertThat(ShownTable.of(header)).isEqualTo(new ShownTable(header, Optional.empty()));
    }
}
