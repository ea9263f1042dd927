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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The best figure, and which others are apart from it or too close to call. */
class RankingTest {
    private static Map<String, Range> figures(Object... pairs) {
        Map<String, Range> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (Range) pairs[i + 1]);
        }
        return m;
    }

    @Test
    void lowerIsBetterApartNeedsRangesApartAndMediansFurtherThanTheNoise() {
        Ranking r = Ranking.of(figures("a", new Range(10, 9, 11, 3), "b", new Range(12, 11.5, 12.5, 3),
                "c", new Range(10.5, 10.4, 10.6, 3), "d", new Range(30, 5, 40, 3)), false, 0.10, 0);

        assertThat(r.best()).isEqualTo("a");
        assertThat(r.apart()).containsExactly("b");
        assertThat(r.close()).as("c within 10%, d overlapping").containsExactly("c", "d");
        assertThat(r.hasWinner()).isFalse();
    }

    @Test
    void higherIsBetterAndTheFloorInTheFiguresUnit() {
        Ranking r = Ranking.of(figures("a", Range.of(100), "b", Range.of(130), "c", Range.of(129)), true, 0.0, 1.5);

        assertThat(r.best()).isEqualTo("b");
        assertThat(r.close()).containsExactly("c");
        assertThat(r.apart()).containsExactly("a");
    }

    @Test
    void aWinnerWhenEveryOtherIsApart() {
        Ranking r = Ranking.of(figures("a", Range.of(1), "b", Range.of(2)), false, 0.1, 0);

        assertThat(r).isEqualTo(new Ranking("a", List.of("b"), List.of()));
        assertThat(r.hasWinner()).isTrue();
    }

    @Test
    void emptyFiguresAreLeftOutAndFewerThanTwoRankNothing() {
        assertThat(Ranking.of(figures("a", Range.NONE, "b", Range.of(2)), false, 0.1, 0)).isNull();
        assertThat(Ranking.of(figures(), false, 0.1, 0)).isNull();
        assertThat(Ranking.of(figures("a", Range.NONE, "b", Range.of(2), "c", Range.of(3)), false, 0.1, 0))
                .isEqualTo(new Ranking("b", List.of("c"), List.of()));
    }

    @Test
    void aTieGoesToTheFirstGivenAndIsTooCloseToCall() {
        Ranking r = Ranking.of(figures("a", Range.of(5), "b", Range.of(5)), false, 0.1, 0);

        assertThat(r.best()).isEqualTo("a");
        assertThat(r.close()).containsExactly("b");
    }
}
