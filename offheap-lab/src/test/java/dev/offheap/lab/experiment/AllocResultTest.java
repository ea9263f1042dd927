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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import dev.offheap.lab.LabContext;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The alloc experiment's table, chart, verdicts and raw figures from measured ns per operation. */
class AllocResultTest {
    private static final double NAN = Double.NaN;

    /** Each figure as a range of +-5 % around it (apart from a figure 10 % away), NaN as nothing measured. */
    private static Range[] ranges(double... medians) {
        return Arrays.stream(medians).mapToObj(m -> Double.isNaN(m) ? Range.NONE : new Range(m, m * 0.95, m * 1.05, 5))
                .toArray(Range[]::new);
    }

    /** By strategy, at 128 B, 1 KiB, 16 KiB, 64 KiB, 1 MiB and 16 MiB. */
    private static Map<String, Range[]> measured() {
        Map<String, Range[]> m = new LinkedHashMap<>();
        m.put("offheap pool", ranges(20, 22, 25, 30, 40, 100_000));
        m.put("offheap pool, pooling up to 16 MiB", ranges(21, 23, 26, 31, 41, 50));
        m.put("Netty pooled", ranges(30, 35, NAN, 60, 80, 100));
        m.put("Arena.ofConfined()", ranges(400, 450, 600, 900, 2000, 30_000));
        m.put("allocate", ranges(24, 179, 2620, 10_000, 160_000, 2_000_000));
        m.put("allocateDirect", ranges(1020, 1230, 3040, 13_600, 255_000, 3_520_000));
        m.put("allocate, TLAB off", ranges(152, NAN, NAN, NAN, NAN, NAN));
        return m;
    }

    private static ExperimentResult result(Map<String, Range[]> nanos, List<String> problems) {
        return new AllocExperiment().result(Contexts.of(LabContext.Scale.TINY, Path.of("unused")),
                AllocExperiment.SIZES, nanos, problems);
    }

    @Test
    void tableHasARowPerSizeAndStrategyWithTheSeedsFigureTheRangeAndTheRatioToTheBestOfTheSize() {
        List<List<String>> rows = result(measured(), List.of()).tables().getFirst().rows();

        assertThat(rows).as("six per size, TLAB-less allocation at 128 B only").hasSize(37);
        assertThat(rows.subList(0, 7)).containsExactly(
                List.of("128 B", "offheap pool", "", "20.0 ns", "19.0–21.0 ns", "1.0x (best)"),
                List.of("", "offheap pool, pooling up to 16 MiB", "", "21.0 ns", "20.0–22.1 ns", "1.1x"),
                List.of("", "Netty pooled", "", "30.0 ns", "28.5–31.5 ns", "1.5x"),
                List.of("", "Arena.ofConfined()", "", "400.0 ns", "380.0–420.0 ns", "20.0x"),
                List.of("", "allocate", "24.0 ns [000]", "24.0 ns", "22.8–25.2 ns", "1.2x"),
                List.of("", "allocateDirect", "1.02 µs [000]", "1.02 µs", "969.0 ns–1.07 µs", "51.0x"),
                List.of("", "allocate, TLAB off", "152 ns [000]", "152.0 ns", "144.4–159.6 ns", "7.6x"));
        assertThat(rows.get(15)).as("16 KiB: Netty has no figure").containsExactly("", "Netty pooled", "", "-",
                "-", "-");
        assertThat(rows.get(36)).containsExactly("", "allocateDirect", "3.52 ms [004]", "3.52 ms", "3.34–3.70 ms",
                "70,400x");
        assertThat(result(measured(), List.of()).tables().getFirst().columns())
                .containsExactly("size", "strategy", "seed's figure", "this machine", "min–max", "vs best");
    }

    @Test
    void verdictsFor128BytesSixteenKibAndSixteenMibThenTlabs() {
        assertThat(result(measured(), List.of()).verdicts()).containsExactly(
                "On this machine, for 128 B buffers (median, min–max): offheap pool 20.0 ns (19.0–21.0 ns),"
                        + " allocate 24.0 ns (22.8–25.2 ns), Netty pooled 30.0 ns (28.5–31.5 ns), Arena.ofConfined()"
                        + " 400.0 ns (380.0–420.0 ns), allocateDirect 1.02 µs (969.0 ns–1.07 µs): offheap pool is"
                        + " cheapest, 1.2x cheaper than the next, allocate.",
                "On this machine, for 16 KiB buffers (median, min–max): offheap pool 25.0 ns (23.8–26.3 ns),"
                        + " Arena.ofConfined() 600.0 ns (570.0–630.0 ns), allocate 2.62 µs (2.49–2.75 µs),"
                        + " allocateDirect 3.04 µs (2.89–3.19 µs): offheap pool is cheapest, 24x cheaper than the"
                        + " next, Arena.ofConfined().",
                "On this machine, for 16 MiB buffers (median, min–max): Netty pooled 100.0 ns (95.0–105.0 ns),"
                        + " Arena.ofConfined() 30.00 µs (28.50–31.50 µs), offheap pool 100.00 µs (95.00–105.00 µs),"
                        + " allocate 2.00 ms (1.90–2.10 ms), allocateDirect 3.52 ms (3.34–3.70 ms): Netty pooled is"
                        + " cheapest, 300x cheaper than the next, Arena.ofConfined(). The pool tuned to pool buffers"
                        + " up to 16 MiB (largestPooledSize) costs 50.0 ns here instead of 100.00 µs.",
                "Without TLABs (-XX:-UseTLAB), allocate of 128 B costs 152.0 ns instead of 24.0 ns (6.3x); seed"
                        + " 000 saw 24 ns become 152 ns (6.3x).");
    }

    @Test
    void theAllocateRowIsCheckedAgainstAllocateAloneNeverRankedNorBest() {
        Map<String, Range[]> agree = measured();
        agree.put(AllocExperiment.ALLOCATE_ALONE, ranges(12, NAN, NAN, NAN, NAN, NAN));
        Map<String, Range[]> apart = measured();
        apart.put(AllocExperiment.ALLOCATE_ALONE, ranges(5, NAN, NAN, NAN, NAN, NAN));

        ExperimentResult agreeing = result(agree, List.of());
        assertThat(agreeing.verdicts()).contains("The allocate row at 128 B (24.0 ns) is 2.00x the usual JMH benchmark"
                + " that only returns ByteBuffer.allocate(128) (12.0 ns): more than 1.5x apart, so this machine's"
                + " allocate figures are suspect (too little warm-up, or a busy machine).");
        agree.get(AllocExperiment.ALLOCATE_ALONE)[0] = ranges(20)[0];
        assertThat(result(agree, List.of()).verdicts()).contains("The allocate row at 128 B (24.0 ns) is 1.20x the"
                + " usual JMH benchmark that only returns ByteBuffer.allocate(128) (20.0 ns): they agree within 1.5x,"
                + " the difference is the row's writes and byte order.");
        assertThat(result(apart, List.of()).tables().getFirst().rows()).contains(
                List.of("", AllocExperiment.ALLOCATE_ALONE, "", "5.0 ns", "4.8–5.3 ns", "reference, not ranked"));
        assertThat(result(apart, List.of()).tables().getFirst().rows().get(4)).as("not the best either")
                .containsExactly("", "allocate", "24.0 ns [000]", "24.0 ns", "22.8–25.2 ns", "1.2x");
        assertThat(result(apart, List.of()).verdicts().getFirst()).doesNotContain("allocate alone");
        assertThat(result(apart, List.of()).charts().getFirst().series())
                .noneMatch(series -> series.name().equals(AllocExperiment.ALLOCATE_ALONE));
    }

    @Test
    void noTlabVerdictWhenEitherAllocationAt128BytesIsMissing() {
        Map<String, Range[]> noTlabOff = measured();
        noTlabOff.get("allocate, TLAB off")[0] = Range.NONE;
        Map<String, Range[]> noAllocate = measured();
        noAllocate.get("allocate")[0] = Range.NONE;

        assertThat(result(noTlabOff, List.of()).verdicts()).hasSize(3).noneMatch(v -> v.contains("TLAB"));
        assertThat(result(noAllocate, List.of()).verdicts()).hasSize(3).noneMatch(v -> v.contains("TLAB"));
    }

    @Test
    void nothingMeasuredGivesDashesAndNoFiguresVerdicts() {
        Map<String, Range[]> none = new LinkedHashMap<>();
        for (AllocExperiment.Strategy s : AllocExperiment.STRATEGIES) {
            Range[] v = new Range[6];
            Arrays.fill(v, Range.NONE);
            none.put(s.label(), v);
        }

        ExperimentResult r = result(none, List.of("skipped offheap pool: fork failed"));

        assertThat(r.tables().getFirst().rows()).allSatisfy(row -> assertThat(row.subList(3, 6))
                .containsExactly("-", "-", "-"));
        assertThat(r.verdicts()).containsExactly("No figures for 128 B.", "No figures for 16 KiB.",
                "No figures for 16 MiB.");
        assertThat(r.notes().getFirst()).isEqualTo("skipped offheap pool: fork failed");
    }

    @Test
    void chartHasASizeCategoryAndASeriesPerStrategyButTlabLessAllocationOnALogScale() {
        Chart chart = result(measured(), List.of()).charts().getFirst();

        assertThat(chart.title()).isEqualTo("Get and give back one buffer (lower is better)");
        assertThat(chart.unit()).isEqualTo("ns per operation");
        assertThat(chart.logScale()).isTrue();
        assertThat(chart.categories()).containsExactly("128 B", "1 KiB", "16 KiB", "64 KiB", "1 MiB", "16 MiB");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly("offheap pool",
                "offheap pool, pooling up to 16 MiB", "Netty pooled", "Arena.ofConfined()", "allocate",
                "allocateDirect");
        assertThat(chart.series().get(2).values()).containsExactly(30.0, 35.0, NAN, 60.0, 80.0, 100.0);
    }

    @Test
    void notesAreTheProblemsThenTheSeedsThenWhatAnOperationIsThenThePoolsThenHowItRan() {
        List<String> notes = result(measured(), List.of("skipped Netty pooled: no fork")).notes();

        assertThat(notes).hasSize(6);
        assertThat(notes.getFirst()).isEqualTo("skipped Netty pooled: no fork");
        assertThat(notes.get(1)).startsWith("[000] seed 000");
        assertThat(notes.get(2)).startsWith("[004] seed 004");
        assertThat(notes.get(3)).startsWith("Each operation gets a buffer of the size, writes a long at offset 0");
        assertThat(notes.get(4)).startsWith("offheap pool is BufferPool.builder().build(), the default");
        assertThat(notes.get(5)).contains("Scale TINY (sizes 128 B, 1 KiB, 16 KiB, 64 KiB, 1 MiB, 16 MiB);"
                + " JMH forks run with -Xms1g -Xmx1g -XX:+UseG1GC");
    }

    @Test
    void rawHasTheUnitTheSizesAndEveryRange() {
        Map<String, Object> raw = result(measured(), List.of()).raw();

        assertThat(raw.keySet()).containsExactly("unit", "sizesBytes", "scores");
        assertThat(raw.get("unit")).isEqualTo("ns");
        assertThat(raw.get("sizesBytes")).isEqualTo(List.of(128L, 1024L, 16_384L, 65_536L, 1_048_576L, 16_777_216L));
        Map<?, ?> scores = (Map<?, ?>) raw.get("scores");
        assertThat(List.copyOf(scores.keySet())).isEqualTo(List.of("offheap pool", "offheap pool, pooling up to 16 MiB",
                "Netty pooled", "Arena.ofConfined()", "allocate", "allocateDirect", "allocate, TLAB off"));
        assertThat((List<?>) scores.get("allocate")).first().isEqualTo(ranges(24)[0]);
    }

    @Test
    void theRowAndTheReferenceAgreeUpToOneAndAHalfTimesEitherWay() {
        Map<String, Range[]> high = measured();
        high.put(AllocExperiment.ALLOCATE_ALONE, ranges(16, NAN, NAN, NAN, NAN, NAN));
        Map<String, Range[]> low = measured();
        low.put("allocate", ranges(20, 179, 2620, 10_000, 160_000, 2_000_000));
        low.put(AllocExperiment.ALLOCATE_ALONE, ranges(30, NAN, NAN, NAN, NAN, NAN));

        assertThat(result(high, List.of()).verdicts()).anyMatch(v -> v.contains("1.50x the usual JMH benchmark")
                && v.contains("they agree within 1.5x"));
        assertThat(result(low, List.of()).verdicts()).anyMatch(v -> v.contains("0.67x the usual JMH benchmark")
                && v.contains("they agree within 1.5x"));
    }
}
