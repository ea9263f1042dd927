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

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The offheap budgets' ceiling inspect sets against a container's limit, from the budgets' MBeans. */
class RootBudgetLimitTest {
    private static final long GIB = 1L << 30;

    private static OffheapBean budget(String path, long limit) {
        return new OffheapBean("MemoryBudget", path.substring(1), Map.of("LimitBytes", limit), path);
    }

    @Test
    void theRootsLimitsAddUpAndChildrenDoNotCount() {
        assertThat(Sampler.rootBudgetLimit(List.of(budget("/app", GIB), budget("/app/io", GIB / 2),
                budget("/cache", 2 * GIB)))).isEqualTo(3 * GIB);
    }

    @Test
    void aRootWithoutLimitMeansNoCeilingWhetherItSaysLongMaxValueOrMinusOne() {
        // offheap 1.0 reports no limit as Long.MAX_VALUE: added to another root it used to overflow
        assertThat(Sampler.rootBudgetLimit(List.of(budget("/app", GIB), budget("/spill", Long.MAX_VALUE))))
                .isEqualTo(-1);
        assertThat(Sampler.rootBudgetLimit(List.of(budget("/spill", Long.MAX_VALUE), budget("/app", GIB))))
                .isEqualTo(-1);
        assertThat(Sampler.rootBudgetLimit(List.of(budget("/app", GIB), budget("/old", -1)))).isEqualTo(-1);
    }

    @Test
    void noRootBudgetNoCeiling() {
        assertThat(Sampler.rootBudgetLimit(List.of())).isEqualTo(-1);
        assertThat(Sampler.rootBudgetLimit(List.of(new OffheapBean("BufferPool", "io", Map.of("LimitBytes", GIB),
                null)))).isEqualTo(-1);
    }
}
