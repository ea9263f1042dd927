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
import dev.offheap.lab.LabContext;
import dev.offheap.lab.bench.AllocBench;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disturbed measurement never becomes a verdict: a noisy figure is measured again and the steadier one kept;
 * one that stays noisy is said to be, and no verdict names a winner its range does not support. With a fake
 * benchmark runner (the case: one iteration of the pool's 128 B figure took 40 µs), and for real with two
 * threads spinning beside the lab's measurements.
 */
class DisturbedMeasurementTest {
    private static final Pattern CHEAPEST = Pattern.compile("for (.+?) buffers .*: (.+?) is cheapest");

    @TempDir
    Path workDir;

    private LabContext context() {
        return Contexts.of(LabContext.Scale.TINY, workDir);
    }

    /** Fake scores: every strategy steady around its figure, the pool at 128 B as {@code pool128} says. */
    private static Jmh.Runs fake(List<Range> pool128) {
        List<Range> left = new ArrayList<>(pool128);
        return (benchmark, methodRegex, params, flags, forceFork) -> {
            List<Jmh.Score> scores = new ArrayList<>();
            for (String size : params.get("size")) {
                double steady = switch (methodRegex) {
                    case "offheapPool", "offheapPoolTuned" -> 20;
                    case "nettyPooled" -> 30;
                    case "arenaConfined" -> 400;
                    case "allocate" -> 11 + Long.parseLong(size) / 10.0;
                    case "allocateAlone" -> 10 + Long.parseLong(size) / 10.0;
                    default -> 1000 + Long.parseLong(size);
                };
                Range range = methodRegex.equals("offheapPool") && size.equals("128") && !left.isEmpty()
                        ? left.removeFirst() : new Range(steady, steady * 0.97, steady * 1.03, 5);
                scores.add(new Jmh.Score(methodRegex, Map.of("size", size), range));
            }
            return scores;
        };
    }

    @Test
    void aNoisyFigureIsMeasuredAgainAndTheSteadierKept() {
        Jmh jmh = new Jmh(context(), fake(List.of(new Range(19_150, 17, 40_000, 5), new Range(20, 19.5, 20.6, 5))));

        ExperimentResult result = new AllocExperiment().run(context(), jmh);

        assertThat(result.verdicts().getFirst()).contains("offheap pool 20.0 ns (19.5–20.6 ns)")
                .endsWith(": offheap pool is cheapest, 1.2x cheaper than the next, allocate.");
        assertThat(result.notes().getFirst()).isEqualTo("measured again because their iterations disagreed by more"
                + " than 30% (another process took the core): offheap pool at size=128; the steadier measurement is"
                + " shown");
    }

    @Test
    void aFigureNoisyTwiceIsSaidToBeAndNamesNoWinnerItsRangeDoesNotSupport() {
        Jmh jmh = new Jmh(context(), fake(List.of(new Range(19_150, 17, 40_000, 5), new Range(9_000, 15, 30_000, 5))));

        ExperimentResult result = new AllocExperiment().run(context(), jmh);

        assertThat(result.verdicts().getFirst()).as("the steadier of the two: smaller spread").contains("offheap pool 19.15 µs (17.0 ns–40.00 µs)")
                .contains(": too close to call here between allocate and");
        assertThat(result.notes()).contains("too noisy here even when measured again (ranges wide, verdicts on them"
                + " say too close to call): offheap pool at size=128");
        assertNoUnsupportedWinner(result);
    }

    @Test
    void twoSpinningThreadsBesideTheMeasurementsNeverMakeAnUnsupportedWinner() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> hogs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            hogs.add(Thread.ofPlatform().daemon().start(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }));
        }
        try {
            ExperimentResult result = new AllocExperiment().run(context(), new Jmh(context()));

            assertThat(result.verdicts()).hasSizeGreaterThanOrEqualTo(3);
            assertNoUnsupportedWinner(result);
        } finally {
            stop.set(true);
            for (Thread hog : hogs) {
                hog.join();
            }
        }
    }

    /** Every "X is cheapest" at a size has X's range below every other ranked strategy's range at that size. */
    @SuppressWarnings("unchecked")
    private static void assertNoUnsupportedWinner(ExperimentResult result) {
        List<Long> sizes = (List<Long>) result.raw().get("sizesBytes");
        Map<String, List<Range>> scores = (Map<String, List<Range>>) result.raw().get("scores");
        for (String verdict : result.verdicts()) {
            Matcher m = CHEAPEST.matcher(verdict);
            if (!m.find()) {
                continue;
            }
            int k = sizes.stream().map(Format::bytes).toList().indexOf(m.group(1));
            Range winner = scores.get(m.group(2)).get(k);
            scores.forEach((label, ranges) -> {
                Range other = ranges.get(k);
                if (!label.equals(m.group(2)) && AllocExperiment.isRanked(label) && !other.isEmpty()) {
                    assertThat(winner.max()).as("%s named cheapest at %s over %s: %s", m.group(2), m.group(1), label,
                            verdict).isLessThan(other.min());
                }
            });
        }
    }

    @Test
    void jmhFiguresAreRangesOverTheIterations() throws Exception {
        List<Jmh.Score> scores = new Jmh(context()).run(AllocBench.class, "allocate",
                Map.of("size", List.of("128")), List.of(), false);

        assertThat(scores).singleElement().satisfies(s -> {
            assertThat(s.nanos().count()).isEqualTo(3);
            assertThat(s.nanos().min()).isLessThanOrEqualTo(s.nanos().median());
            assertThat(s.nanos().median()).isLessThanOrEqualTo(s.nanos().max());
        });
    }

    @Test
    void onEqualSpreadsTheFirstMeasurementIsKeptAndOnlyTheSameFigureCountsAsMeasuredAgain() throws Exception {
        List<Map<String, List<String>>> asked = new ArrayList<>();
        Jmh jmh = new Jmh(context(), (benchmark, methodRegex, params, flags, forceFork) -> {
            asked.add(params);
            if (asked.size() == 1) {
                return List.of(new Jmh.Score("m", Map.of("size", "1"), new Range(10, 5, 15, 5)));
            }
            return List.of(new Jmh.Score("m", Map.of("size", "2"), new Range(1, 1, 1, 5)),
                    new Jmh.Score("m", Map.of("size", "1"), new Range(20, 10, 30, 5)));
        });

        List<Jmh.Score> scores = jmh.run(AllocBench.class, "m", Map.of("size", List.of("1")), List.of(), false);

        assertThat(scores).singleElement().extracting(Jmh.Score::nanos).isEqualTo(new Range(10, 5, 15, 5));
        assertThat(asked).containsExactly(Map.of("size", List.of("1")), Map.of("size", List.of("1")));
        assertThat(jmh.notes()).containsExactly(
                "measured again because their iterations disagreed by more than 30% (another process took the"
                        + " core): AllocBench at size=1; the steadier measurement is shown",
                "too noisy here even when measured again (ranges wide, verdicts on them say too close to call):"
                        + " AllocBench at size=1");
    }
}
