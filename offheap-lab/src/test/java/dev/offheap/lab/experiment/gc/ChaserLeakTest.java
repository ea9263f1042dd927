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

package dev.offheap.lab.experiment.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.experiment.ChildJvm;
import dev.offheap.lab.LabContext;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The leaking chaser is stopped by its budget however slow the machine: it runs until the budget refuses a
 * lease, not until a clock says so, and its leases stay reachable (a leak the leak detector cannot reclaim).
 */
@Tag("child-jvm")
class ChaserLeakTest {
    @Test
    void theBudgetStopsTheLeakEvenWhenTheRunIsOneMillisecond(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        LabContext context = new LabContext(LabContext.Scale.TINY, dir, (what, fraction) -> {}, java, classPath);

        // 4 MiB of 1 KiB leases: 4096 are granted, the 4097th is refused
        ChildJvm.Outcome out = new ChildJvm(context).run(List.of("-Xmx256m"), Chaser.class,
                List.of("pool-leak", "1", "1", Long.toString(4L << 20)), 60_000);

        assertThat(out.ok()).as(out.stderr()).isTrue();
        assertThat(out.values()).containsEntry("buffers", "4096");
        assertThat(out.values().get("outcome")).startsWith("stopped after 4096 buffers by BudgetExceededException");
    }
}
