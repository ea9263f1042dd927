package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The alloc experiment's verdict on one size: every strategy cheapest first, the spread between the ends. */
class AllocVerdictTest {
    private static final double NAN = Double.NaN;

    private static Map<String, double[]> nanos(Object... pairs) {
        Map<String, double[]> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (double[]) pairs[i + 1]);
        }
        return m;
    }

    @Test
    void namesTheCheapestAndHowManyTimesCheaperThanTheDearestItIs() {
        String v = AllocExperiment.verdict("128 B", nanos("offheap pool", new double[] {10_008},
                "allocate", new double[] {24}), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers, allocate costs 24.0 ns, offheap pool costs"
                + " 10.01 µs: allocate is cheapest, 417x cheaper than offheap pool.");
    }

    @Test
    void listsEveryStrategyFromCheapestToDearestWithThousandsSeparatorsInTheRatio() {
        String v = AllocExperiment.verdict("16 MiB", nanos("allocateDirect", new double[] {3_520_000},
                "offheap pool", new double[] {50}, "allocate", new double[] {2_000_000},
                "Netty pooled", new double[] {100}), 0);

        assertThat(v).isEqualTo("On this machine, for 16 MiB buffers, offheap pool costs 50.0 ns, Netty pooled"
                + " costs 100.0 ns, allocate costs 2.00 ms, allocateDirect costs 3.52 ms: offheap pool is cheapest,"
                + " 70,400x cheaper than allocateDirect.");
    }

    @Test
    void readsTheFiguresOfTheSizeAsked() {
        Map<String, double[]> figures = nanos("offheap pool", new double[] {20, 900}, "allocate",
                new double[] {24, 30});

        assertThat(AllocExperiment.verdict("1 KiB", figures, 1)).isEqualTo("On this machine, for 1 KiB buffers,"
                + " allocate costs 30.0 ns, offheap pool costs 900.0 ns: allocate is cheapest, 30x cheaper than"
                + " offheap pool.");
    }

    @Test
    void leavesOutAllocationWithoutTlabsEvenWhenItIsCheapest() {
        String v = AllocExperiment.verdict("128 B", nanos("allocate", new double[] {24}, "allocateDirect",
                new double[] {1020}, "allocate, TLAB off", new double[] {5}), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers, allocate costs 24.0 ns, allocateDirect costs"
                + " 1.02 µs: allocate is cheapest, 43x cheaper than allocateDirect.");
    }

    @Test
    void leavesOutStrategiesWithoutAFigure() {
        String v = AllocExperiment.verdict("16 KiB", nanos("offheap pool", new double[] {25}, "Netty pooled",
                new double[] {NAN}, "allocateDirect", new double[] {3040}), 0);

        assertThat(v).isEqualTo("On this machine, for 16 KiB buffers, offheap pool costs 25.0 ns, allocateDirect"
                + " costs 3.04 µs: offheap pool is cheapest, 122x cheaper than allocateDirect.");
    }

    @Test
    void withoutAnyFigureSaysSo() {
        assertThat(AllocExperiment.verdict("16 MiB", nanos("offheap pool", new double[] {NAN},
                "allocate, TLAB off", new double[] {152}), 0)).isEqualTo("No figures for 16 MiB.");
        assertThat(AllocExperiment.verdict("16 MiB", nanos(), 0)).isEqualTo("No figures for 16 MiB.");
    }

    // Today's wording, odd as it reads: a tie or a lone figure still names a cheapest, "1x cheaper".
    @Test
    void aTieNamesTheFirstMeasuredAsCheapest() {
        String v = AllocExperiment.verdict("128 B", nanos("offheap pool", new double[] {20}, "Netty pooled",
                new double[] {20}), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers, offheap pool costs 20.0 ns, Netty pooled costs"
                + " 20.0 ns: offheap pool is cheapest, 1x cheaper than Netty pooled.");
    }

    @Test
    void aLoneFigureIsComparedWithItself() {
        String v = AllocExperiment.verdict("128 B", nanos("allocate", new double[] {24}), 0);

        assertThat(v).isEqualTo("On this machine, for 128 B buffers, allocate costs 24.0 ns: allocate is cheapest,"
                + " 1x cheaper than allocate.");
    }
}
