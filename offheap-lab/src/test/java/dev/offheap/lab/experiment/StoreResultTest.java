package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.ExperimentResult.Chart;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The store experiment's table, chart and verdicts from measured ns per pass, in order and at random. */
class StoreResultTest {
    private static final long GIB = 1L << 30;
    private static final int GATHER = 2_097_152;
    private static final double NAN = Double.NaN;

    private static Map<String, double[]> nanos() {
        Map<String, double[]> m = new LinkedHashMap<>();
        m.put("double[]", new double[] {50e6, 8e6});
        m.put("flat MemorySegment", new double[] {52e6, 9e6});
        m.put("offheap store (DoubleArray)", new double[] {60e6, 10e6});
        m.put("ByteBuffer[] 1 MiB chunks", new double[] {104e6, 12e6});
        return m;
    }

    private static ExperimentResult result(Map<String, double[]> nanos) {
        return new StoreExperiment().result(nanos, GIB, GATHER, List.of("a note"));
    }

    @Test
    void tableHasEachLayoutInOrderAndAtRandomWithRatiosToTheBestOfEach() {
        ExperimentResult.Table table = result(nanos()).tables().getFirst();

        assertThat(table.title()).isEqualTo("Reads of 1 GiB of doubles (mean time per pass)");
        assertThat(table.columns()).containsExactly("layout", "seed's figure", "sequential", "vs best",
                "random (2,097,152 reads)", "vs best");
        assertThat(table.rows()).containsExactly(
                List.of("double[]", "", "50.00 ms", "1.0x (best)", "8.00 ms", "1.0x (best)"),
                List.of("flat MemorySegment", "", "52.00 ms", "1.0x", "9.00 ms", "1.1x"),
                List.of("offheap store (DoubleArray)", "180 ms [003, its Unsafe chunk table]", "60.00 ms", "1.2x",
                        "10.00 ms", "1.3x"),
                List.of("ByteBuffer[] 1 MiB chunks", "311 ms [003]", "104.00 ms", "2.1x", "12.00 ms", "1.5x"));
    }

    @Test
    void verdictsCompareTheStoreWithTheChunksAndADoubleArray() {
        assertThat(result(nanos()).verdicts()).containsExactly(
                "On this machine, summing 1 GiB of doubles in order takes 60.00 ms from offheap's store, 50.00 ms"
                        + " from a double[] and 104.00 ms from seed 003's ByteBuffer[] chunks: the store is 1.73x as"
                        + " fast as the chunks (seed 003's Unsafe table: 1.73x) and 1.20x the time of a double[].",
                "At random (2,097,152 reads), the store takes 10.00 ms, the chunks 12.00 ms, a double[] 8.00 ms.");
    }

    @Test
    void noVerdictsWithoutEveryFigureOfTheStoreTheChunksAndTheArray() {
        Map<String, double[]> noRandomArray = nanos();
        noRandomArray.get("double[]")[1] = NAN;
        Map<String, double[]> noFlat = nanos();
        noFlat.put("flat MemorySegment", new double[] {NAN, NAN});

        assertThat(result(noRandomArray).verdicts()).isEmpty();
        assertThat(result(noFlat).verdicts()).as("the flat segment is not in the verdicts").hasSize(2);
        assertThat(result(noFlat).tables().getFirst().rows().get(1))
                .containsExactly("flat MemorySegment", "", "-", "-", "-", "-");
    }

    @Test
    void chartHasSequentialAndRandomCategoriesAndASeriesPerLayoutInMs() {
        Chart chart = result(nanos()).charts().getFirst();

        assertThat(chart.title()).isEqualTo("Reads of 1 GiB of doubles");
        assertThat(chart.unit()).isEqualTo("ms per pass");
        assertThat(chart.logScale()).isFalse();
        assertThat(chart.categories()).containsExactly("sequential", "random (2,097,152 reads)");
        assertThat(chart.series()).extracting(ExperimentResult.Series::name).containsExactly("double[]",
                "flat MemorySegment", "offheap store (DoubleArray)", "ByteBuffer[] 1 MiB chunks");
        assertThat(chart.series().get(3).values()).containsExactly(104.0, 12.0);
    }

    @Test
    void rawHasTheUnitSizeGatherAndEachLayoutsScores() {
        ExperimentResult r = result(nanos());

        assertThat(r.name()).isEqualTo("store");
        assertThat(r.raw().keySet()).containsExactly("unit", "bytes", "gather", "scores");
        assertThat(r.raw()).containsEntry("unit", "ns/op").containsEntry("bytes", GIB).containsEntry("gather", GATHER);
        Map<?, ?> scores = (Map<?, ?>) r.raw().get("scores");
        assertThat(List.copyOf(scores.keySet())).isEqualTo(List.copyOf(nanos().keySet()));
        assertThat(scores.get("ByteBuffer[] 1 MiB chunks")).isEqualTo(Map.of("sequential", 104e6, "random", 12e6));
        assertThat(r.notes()).containsExactly("a note");
    }
}
