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

import dev.offheap.lab.experiment.ServerExperiment.Run;
import dev.offheap.lab.experiment.server.LoadClient;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The seed part's verdicts: who serves most, and whether the spread is beyond one run's noise (15 %). */
class ServerVerdictTest {
    private static final String SEED = "; the seed found heap views best (2484 vs 2241-2304 tx/s, a 10% spread)";
    private static final String WITHIN_NOISE = "with a one-thread server on loopback, the buffer strategy is not what"
            + " limits throughput: the differences are within one run's noise here (~15%), as the seed's 10% spread"
            + " was";

    /** Strategies and their requests in one second. */
    private static Map<String, Run> runs(Object... pairs) {
        Map<String, Run> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], new Run(new LoadClient.Load((Integer) pairs[i + 1], new long[0], 1.0, 0),
                    new Samples(new long[0]), null));
        }
        return m;
    }

    private static String visible(String best) {
        return "with a one-thread server on loopback, the buffer strategy is visible in throughput: " + best
                + " serves most, by more than one run's noise (~15%)";
    }

    @Test
    void aSpreadWithinNoiseNamesNoFastest() {
        assertThat(ServerExperiment.verdicts(runs("heap", 1000, "direct", 900, "heap-view", 950))).containsExactly(
                "on this machine, the buffer strategies served 900 to 1000 req/s, 10% apart: too close to call here"
                        + " (one run each, within its noise)" + SEED,
                WITHIN_NOISE);
    }

    @Test
    void aSpreadBeyondNoiseIsVisible() {
        assertThat(ServerExperiment.verdicts(runs("heap", 1000, "direct", 1200, "pool", 2000))).containsExactly(
                "on this machine, pool serves the most requests (2000 req/s); the slowest strategy is 50% lower" + SEED,
                visible("pool"));
    }

    @Test
    void fifteenPercentExactlyIsBeyondNoise() {
        assertThat(ServerExperiment.verdicts(runs("heap", 850, "direct", 1000))).containsExactly(
                "on this machine, direct serves the most requests (1000 req/s); the slowest strategy is 15% lower"
                        + SEED,
                visible("direct"));
    }

    @Test
    void aTieIsTooCloseToCall() {
        assertThat(ServerExperiment.verdicts(runs("heap", 1000, "direct", 1000)).getFirst()).isEqualTo(
                "on this machine, the buffer strategies served 1000 to 1000 req/s, 0% apart: too close to call here"
                        + " (one run each, within its noise)" + SEED);
    }

    @Test
    void nothingMeasuredSaysSo() {
        assertThat(ServerExperiment.verdicts(Map.of()))
                .containsExactly("on this machine, the server was not measured: see the notes");
    }

    @Test
    void noRequestServedNamesNoStrategy() {
        assertThat(ServerExperiment.verdicts(runs("heap", 0, "direct", 0, "pool", 0)))
                .containsExactly("on this machine, the server served no request: see the notes");
    }

    @Test
    void aStrategyThatServedNothingIsAHundredPercentLower() {
        assertThat(ServerExperiment.verdicts(runs("heap", 0, "direct", 1000))).containsExactly(
                "on this machine, direct serves the most requests (1000 req/s); the slowest strategy is 100% lower"
                        + SEED,
                visible("direct"));
    }
}
