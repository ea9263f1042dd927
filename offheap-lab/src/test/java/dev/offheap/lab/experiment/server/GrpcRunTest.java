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

/** A whole shootout of the gRPC workload, short: every configuration is measured and its figures are read. */
class GrpcRunTest {
    @TempDir
    Path dir;

    @Test
    void everyConfigurationServesCallsAndTheTablesShowItsFigures() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        ServerShootout.Settings settings = ServerShootout.settings(new String[] {"--only", "grpc", "--rounds", "1",
                "--seconds", "1", "--warmup", "1", "--connections", "4", "--idle", "0", "--settle", "0",
                "--heap", "128m"});

        ServerShootout.Results results = new ServerShootout(java, classPath, dir, Optional.empty()).run(settings,
                (what, fraction) -> {});

        assertThat(results.measurements()).extracting(Measurement::config)
                .containsExactlyInAnyOrder("offheap", "offheap-recycling", "adaptive", "pooled", "unpooled");
        for (Measurement m : results.measurements()) {
            assertThat(m.failure()).as(m.config()).isNull();
            assertThat(m.load().requests()).as(m.config()).isPositive();
            assertThat(m.heapBytesPerRequest()).as(m.config()).isPositive();
            assertThat(m.peakRssKib()).as(m.config()).isPositive();
            assertThat(m.rssAfterIdleKib()).as(m.config()).isPositive();
        }
        assertThat(results.summaries()).extracting(Summary::workload).containsOnly(Workload.GRPC);
        assertThat(results.markdown()).contains("### gRPC unary echo on grpc-netty, 4 KiB messages (Java closed-loop"
                + " client)", "| heap B/request |", "gRPC unary echo on grpc-netty, 4 KiB messages (Java closed-loop"
                + " client), heap per request:");
        @SuppressWarnings("unchecked")
        Map<String, Object> first = ((List<Map<String, Object>>) results.json().get("summaries")).getFirst();
        assertThat(first).containsEntry("workload", "grpc").containsKey("heapBytesPerRequest");
    }
}
