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

package dev.offheap.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.recorder.MemoryRecorder;
import dev.offheap.recorder.RecorderOptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process's memory by owner as meters: the parts add up to the RSS gauge, from a recorder or sampled on read. */
class ProcessMemoryMetersTest {
    private static final String[] PARTS = {"heap", "metaspace", "codeCache", "direct", "native", "files", "sharedMemory"};

    @TempDir
    Path dir;

    @Test
    void samplingOnReadThePartsAddUpToTheRss() {
        MeterRegistry registry = new SimpleMeterRegistry();
        // a sample kept for an hour: every gauge below reads the same one, however slow the machine
        ProcessMemoryMeters.sampling(Tags.of("app", "test"), Duration.ofHours(1)).bindTo(registry);
        double sum = 0;
        for (String part : PARTS) {
            double v = gauge(registry, "offheap.process.memory", Tags.of("part", part, "app", "test")).value();
            assertThat(v).as(part).isNotNegative();
            sum += v;
        }
        double rss = gauge(registry, "offheap.process.rss", Tags.of("app", "test")).value();
        assertThat(rss).isPositive();
        assertThat(sum).isEqualTo(rss);
        assertThat(registry.find("offheap.container.limit").gauge()).isNotNull();
        assertThat(gauge(registry, "offheap.process.memory", Tags.of("part", "heap", "app", "test")).getId().getBaseUnit())
                .isEqualTo("bytes");
    }

    @Test
    void aRecordersMetersReadItsLastSample() {
        try (MemoryRecorder recorder = MemoryRecorder.start(RecorderOptions.defaults().directory(dir)
                .interval(Duration.ofSeconds(60)).signal("none"))) {
            MeterRegistry registry = new SimpleMeterRegistry();
            ProcessMemoryMeters.of(recorder, Tags.empty()).bindTo(registry);
            assertThat(gauge(registry, "offheap.process.rss", Tags.empty()).value()).isEqualTo((double) recorder.latest().rss());
            assertThat(gauge(registry, "offheap.process.memory", Tags.of("part", "native")).value())
                    .isEqualTo((double) recorder.latest().parts().get(4).bytes());
        }
    }

    private static Gauge gauge(MeterRegistry registry, String name, Tags tags) {
        Gauge g = registry.find(name).tags(tags).gauge();
        assertThat(g).as(name + " " + tags).isNotNull();
        return g;
    }
}
