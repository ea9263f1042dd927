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

package dev.offheap.lab.experiment.server;

import dev.offheap.lab.experiment.Range;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A figure a run could not read (NaN, or -1 KiB) is left out of the summary; a reading of zero is a figure. */
class SummaryUnreadFiguresTest {
    private static Measurement run(int round, double gcPauseMaxMs, long peakRssKib, long rssAfterIdleKib) {
        return new Measurement(Workload.JETTY, "offheap", round, new LoadResult(1000, 1, 1, 2, 3, 4, 0), 1, 5,
                gcPauseMaxMs, peakRssKib, rssAfterIdleKib, null, List.of());
    }

    @Test
    void aRoundWithoutAGcLogDoesNotHideTheLongestPauseOfTheOthers() {
        Summary s = Summary.of(List.of(run(1, Double.NaN, 2048, 1024), run(2, 5, 2048, 1024))).getFirst();

        assertThat(s.gcPauseMaxMs()).isEqualTo(5.0);
    }

    @Test
    void zeroKibIsZeroMibAndMinusOneIsNoFigure() {
        Summary s = Summary.of(List.of(run(1, 5, 0, 0), run(2, 5, -1, -1))).getFirst();

        assertThat(s.peakRssMib()).isEqualTo(new Range(0, 0, 0, 1));
        assertThat(s.rssAfterIdleMib()).isEqualTo(new Range(0, 0, 0, 1));
    }
}
