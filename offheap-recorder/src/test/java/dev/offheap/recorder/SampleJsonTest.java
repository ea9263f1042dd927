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

package dev.offheap.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A recorder's line as written, read back field by field. */
class SampleJsonTest {
    static MemorySample sample(long rss, long containerLimit) {
        return new MemorySample(Instant.parse("2026-11-28T10:00:00Z"), rss, 600, 300, 100, -1, 500, 400, 200, 50, 30, 20,
                7, -1, 900, containerLimit);
    }

    @Test
    @SuppressWarnings("unchecked")
    void writesTheSchemaWithNullsForWhatWasNotReadAndEscapesText() {
        Ceilings ceilings = new Ceilings(List.of(new Ceilings.Item("heap", 1000, "MaxHeapSize"),
                new Ceilings.Item("direct", 24, "MaxDirectMemorySize")));
        String line = SampleJson.line(sample(1000, -1), 42, "VM \"x\"\n", ceilings, null,
                List.of(new Finding("id-1", "warning", "a \\ b\t\u0001")));
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(line);
        assertThat(doc).containsEntry("version", 3L).containsEntry("source", "offheap-recorder").containsEntry("pid", 42L)
                .containsEntry("time", "2026-11-28T10:00:00Z").containsEntry("vm", "VM \"x\"\n").containsEntry("rss", 1000L)
                .containsEntry("heap", 400L).containsEntry("direct", 20L).containsEntry("malloc", null)
                .containsEntry("unexplained", 0L);
        Map<String, Object> details = (Map<String, Object>) doc.get("details");
        assertThat((Map<String, Object>) details.get("rss")).containsEntry("anonymous", 600L).containsEntry("fileBacked", 300L)
                .containsEntry("sharedMemory", 100L).containsEntry("swap", null);
        assertThat((Map<String, Object>) details.get("heap")).isEqualTo(Map.of("committed", 500L, "resident", 400L, "used", 200L));
        assertThat(details.get("threads")).isEqualTo(7L);
        assertThat((Map<String, Object>) details.get("container")).containsEntry("directory", null).containsEntry("limit", null)
                .containsEntry("usage", null).containsEntry("workingSet", 900L);
        Map<String, Object> c = (Map<String, Object>) details.get("ceilings");
        assertThat(c.get("sum")).isEqualTo(1024L);
        assertThat((List<Object>) c.get("items")).containsExactly(
                Map.of("key", "heap", "bytes", 1000L, "source", "MaxHeapSize", "kind", "limit"),
                Map.of("key", "direct", "bytes", 24L, "source", "MaxDirectMemorySize", "kind", "limit"));
        List<Map<String, Object>> parts = (List<Map<String, Object>>) doc.get("attribution");
        assertThat(parts).extracting(p -> p.get("part")).containsExactly("heap", "metaspace", "codeCache", "direct", "native",
                "files", "sharedMemory");
        assertThat(parts).extracting(p -> p.get("bytes")).containsExactly(400L, 50L, 30L, 20L, 100L, 300L, 100L);
        assertThat(parts.get(0)).containsEntry("exact", false).containsEntry("bound", null);
        assertThat((List<Object>) doc.get("findings")).containsExactly(
                Map.of("id", "id-1", "severity", "warning", "text", "a \\ b\t\u0001"));
        assertThat(line).contains("\\u0001", "\\t", "\\n", "\\\"x\\\"").doesNotContain("\n");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCgroupIsNamedAndSeveralFindingsAndItemsAreListed() {
        String line = SampleJson.line(sample(0, 2048), 1, "vm", new Ceilings(List.of()), "/sys/fs/cgroup/x",
                List.of(new Finding("a", "info", "1"), new Finding("b", "critical", "2")));
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(line);
        assertThat(doc.get("rss")).as("0 is a figure, not unknown").isEqualTo(0L);
        Map<String, Object> container = (Map<String, Object>) ((Map<String, Object>) doc.get("details")).get("container");
        assertThat(container).containsEntry("directory", "/sys/fs/cgroup/x").containsEntry("limit", 2048L);
        assertThat((List<Object>) doc.get("findings")).hasSize(2);
        assertThat(Timeline.parse(List.of(line)).points()).hasSize(1);
    }

    @Test
    void theContainersShareNeedsALimitAndAWorkingSet() {
        MemorySample s = sample(1, 2048);
        assertThat(s.containerShare()).isEqualTo(900 / 2048.0);
        assertThat(sample(1, 0).containerShare()).isEqualTo(-1);
        assertThat(sample(1, 1).containerShare()).isEqualTo(900.0);
        MemorySample noWorkingSet = new MemorySample(Instant.EPOCH, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, -1, 100);
        assertThat(noWorkingSet.containerShare()).isEqualTo(-1);
        MemorySample zero = new MemorySample(Instant.EPOCH, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 100);
        assertThat(zero.containerShare()).isZero();
    }
}
