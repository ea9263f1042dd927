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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole shootout with no trim call (echo, so no wrk): every run reads its memory while idle. */
class IdleRunTest {
    @TempDir
    Path dir;

    @Test
    void everyRunReadsItsMemoryAtEachSampleTimeAndTheTablesShowThem() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        ServerShootout.Settings settings = new ServerShootout.Settings(List.of(Workload.NETTY_ECHO_16K), 1, 1, 1, 4,
                1, 2, 0, "128m", true, false, 1);

        ServerShootout.Results results = new ServerShootout(java, classPath, dir, Optional.empty()).run(settings,
                (what, fraction) -> {});

        assertThat(results.measurements()).extracting(Measurement::config)
                .containsExactlyInAnyOrderElementsOf(Workload.NETTY_ECHO_16K.configs());
        for (Measurement m : results.measurements()) {
            assertThat(m.failure()).as(m.config()).isNull();
            assertThat(m.idleSamples()).as(m.config()).extracting(IdleSample::seconds).containsExactly(0, 1, 2);
            assertThat(m.idleSamples()).as(m.config()).allSatisfy(s -> assertThat(s.rssKib()).isPositive());
            assertThat(m.rssAfterIdleKib()).as(m.config()).isPositive();
            assertThat(m.heapAllocatedBytes()).as(m.config()).isPositive();
            assertThat(m.heapBytesPerRequest()).as(m.config()).isPositive();
        }
        Measurement pooled = results.measurements().stream().filter(m -> m.config().equals("pooled")).findFirst()
                .orElseThrow();
        assertThat(pooled.allocatorBytesAfterIdle()).isPositive();
        assertThat(results.markdown()).contains("2 s idle",
                "System.gc() only (no trim call)", "memory after the load (idle with no trim call, then GC only)",
                "| RSS 0 s MiB | RSS 2 s MiB | RSS after GC MiB |", "| heap B/request | GC pauses total ms |");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> idle = (List<Map<String, Object>>) results.json().get("idle");
        assertThat(idle).hasSize(Workload.NETTY_ECHO_16K.configs().size());
        assertThat(((Map<String, Object>) results.json().get("settings")).get("trim")).isEqualTo(false);
    }
}
