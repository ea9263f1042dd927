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

    /** By strategy, at 128 B, 1 KiB, 16 KiB, 64 KiB, 1 MiB and 16 MiB. */
    private static Map<String, double[]> measured() {
        Map<String, double[]> m = new LinkedHashMap<>();
        m.put("offheap pool", new double[] {20, 22, 25, 30, 40, 50});
        m.put("Netty pooled", new double[] {30, 35, NAN, 60, 80, 100});
        m.put("Arena.ofConfined()", new double[] {400, 450, 600, 900, 2000, 30_000});
        m.put("allocate", new double[] {24, 179, 2620, 10_000, 160_000, 2_000_000});
        m.put("allocateDirect", new double[] {1020, 1230, 3040, 13_600, 255_000, 3_520_000});
        m.put("allocate, TLAB off", new double[] {152, 300, 10, 11_000, 170_000, 2_100_000});
        return m;
    }

    private static ExperimentResult result(Map<String, double[]> nanos, List<String> problems) {
        return new AllocExperiment().result(Contexts.of(LabContext.Scale.TINY, Path.of("unused")), nanos, problems);
    }

    @Test
    void tableHasARowPerSizeAndStrategyWithTheSeedsFigureAndTheRatioToTheBestOfTheSize() {
        List<List<String>> rows = result(measured(), List.of()).tables().getFirst().rows();

        assertThat(rows).hasSize(36);
        assertThat(rows.subList(0, 6)).containsExactly(
                List.of("128 B", "offheap pool", "", "20.0 ns", "1.0x (best)"),
                List.of("", "Netty pooled", "", "30.0 ns", "1.5x"),
                List.of("", "Arena.ofConfined()", "", "400.0 ns", "20.0x"),
                List.of("", "allocate", "24.0 ns [000]", "24.0 ns", "1.2x"),
                List.of("", "allocateDirect", "1.02 µs [000]", "1.02 µs", "51.0x"),
                List.of("", "allocate, TLAB off", "152 ns [000]", "152.0 ns", "7.6x"));
        assertThat(rows.subList(12, 18)).as("16 KiB: the best is TLAB-less allocation, Netty has no figure")
                .containsExactly(
                        List.of("16 KiB", "offheap pool", "", "25.0 ns", "2.5x"),
                        List.of("", "Netty pooled", "", "-", "-"),
                        List.of("", "Arena.ofConfined()", "", "600.0 ns", "60.0x"),
                        List.of("", "allocate", "2.62 µs [000]", "2.62 µs", "262x"),
                        List.of("", "allocateDirect", "3.04 µs [000], 4.46 µs [004]", "3.04 µs", "304x"),
                        List.of("", "allocate, TLAB off", "", "10.0 ns", "1.0x (best)"));
        assertThat(rows.get(34)).containsExactly("", "allocateDirect", "3.52 ms [004]", "3.52 ms", "70,400x");
        assertThat(result(measured(), List.of()).tables().getFirst().columns())
                .containsExactly("size", "strategy", "seed's figure", "this machine", "vs best");
    }

    @Test
    void verdictsFor128BytesSixteenKibAndSixteenMibThenTlabs() {
        assertThat(result(measured(), List.of()).verdicts()).containsExactly(
                "On this machine, for 128 B buffers, offheap pool costs 20.0 ns, allocate costs 24.0 ns, Netty pooled"
                        + " costs 30.0 ns, Arena.ofConfined() costs 400.0 ns, allocateDirect costs 1.02 µs:"
                        + " offheap pool is cheapest, 51x cheaper than allocateDirect.",
                "On this machine, for 16 KiB buffers, offheap pool costs 25.0 ns, Arena.ofConfined() costs"
                        + " 600.0 ns, allocate costs 2.62 µs, allocateDirect costs 3.04 µs: offheap pool is cheapest,"
                        + " 122x cheaper than allocateDirect.",
                "On this machine, for 16 MiB buffers, offheap pool costs 50.0 ns, Netty pooled costs 100.0 ns,"
                        + " Arena.ofConfined() costs 30.00 µs, allocate costs 2.00 ms, allocateDirect costs 3.52 ms:"
                        + " offheap pool is cheapest, 70,400x cheaper than allocateDirect.",
                "Without TLABs (-XX:-UseTLAB), allocate of 128 B costs 152.0 ns instead of 24.0 ns (6.3x); seed"
                        + " 000 saw 24 ns become 152 ns (6.3x).");
    }

    @Test
    void noTlabVerdictWhenEitherAllocationAt128BytesIsMissing() {
        Map<String, double[]> noTlabOff = measured();
        noTlabOff.get("allocate, TLAB off")[0] = NAN;
        Map<String, double[]> noAllocate = measured();
        noAllocate.get("allocate")[0] = NAN;

        assertThat(result(noTlabOff, List.of()).verdicts()).hasSize(3).noneMatch(v -> v.contains("TLAB"));
        assertThat(result(noAllocate, List.of()).verdicts()).hasSize(3).noneMatch(v -> v.contains("TLAB"));
    }

    @Test
    void nothingMeasuredGivesDashesAndNoFiguresVerdicts() {
        Map<String, double[]> none = new LinkedHashMap<>();
        for (AllocExperiment.Strategy s : AllocExperiment.STRATEGIES) {
            double[] v = new double[6];
            Arrays.fill(v, NAN);
            none.put(s.label(), v);
        }

        ExperimentResult r = result(none, List.of("skipped offheap pool: fork failed"));

        assertThat(r.tables().getFirst().rows()).allSatisfy(row -> assertThat(row.subList(3, 5))
                .containsExactly("-", "-"));
        assertThat(r.verdicts()).containsExactly("No figures for 128 B.", "No figures for 16 KiB.",
                "No figures for 16 MiB.");
        assertThat(r.notes().getFirst()).isEqualTo("skipped offheap pool: fork failed");
    }

    @Test
    void chartHasASizeCategoryAndASeriesPerStrategyOnALogScale() {
        Chart chart = result(measured(), List.of()).charts().getFirst();

        assertThat(chart.title()).isEqualTo("Get and give back one buffer");
        assertThat(chart.unit()).isEqualTo("ns per operation");
        assertThat(chart.logScale()).isTrue();
        assertThat(chart.categories()).containsExactly("128 B", "1 KiB", "16 KiB", "64 KiB", "1 MiB", "16 MiB");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly("offheap pool",
                "Netty pooled", "Arena.ofConfined()", "allocate", "allocateDirect", "allocate, TLAB off");
        assertThat(chart.series().get(1).values()).containsExactly(30.0, 35.0, NAN, 60.0, 80.0, 100.0);
    }

    @Test
    void notesAreTheProblemsThenTheSeedsThenHowItRan() {
        List<String> notes = result(measured(), List.of("skipped Netty pooled: no fork")).notes();

        assertThat(notes).hasSize(4);
        assertThat(notes.getFirst()).isEqualTo("skipped Netty pooled: no fork");
        assertThat(notes.get(1)).startsWith("[000] seed 000");
        assertThat(notes.get(2)).startsWith("[004] seed 004");
        assertThat(notes.get(3)).contains("Scale TINY; JMH forks run with -Xms1g -Xmx1g -XX:+UseG1GC");
    }

    @Test
    void rawHasTheUnitTheSizesAndEveryScore() {
        Map<String, Object> raw = result(measured(), List.of()).raw();

        assertThat(raw.keySet()).containsExactly("unit", "sizes", "scores");
        assertThat(raw.get("unit")).isEqualTo("ns/op");
        assertThat(raw.get("sizes")).isEqualTo(List.of(128L, 1024L, 16_384L, 65_536L, 1_048_576L, 16_777_216L));
        Map<?, ?> scores = (Map<?, ?>) raw.get("scores");
        assertThat(List.copyOf(scores.keySet())).isEqualTo(List.of("offheap pool", "Netty pooled",
                "Arena.ofConfined()", "allocate", "allocateDirect", "allocate, TLAB off"));
        assertThat(scores.get("allocate")).isEqualTo(List.of(24.0, 179.0, 2620.0, 10_000.0, 160_000.0, 2_000_000.0));
    }
}
