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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder started as a library in this JVM. */
class MemoryRecorderTest {
    @TempDir
    Path dir;

    @Test
    void samplesEveryIntervalKeepsTheLastOnesAndReportsOnRequest() throws Exception {
        RecorderOptions options = RecorderOptions.defaults().directory(dir.resolve("r")).interval(Duration.ofMillis(100))
                .history(3).signal("none");
        try (MemoryRecorder r = MemoryRecorder.start(options)) {
            assertThat(r.samples()).as("the first sample is taken at start").hasSize(1);
            assertThat(r.options()).isSameAs(options);
            java.time.Instant first = r.latest().time();
            for (int i = 0; i < 1200 && r.latest().time().isBefore(first.plusMillis(350)); i++) {
                Thread.sleep(50);
            }
            assertThat(r.samples()).as("at most the history").hasSize(3);
            assertThat(r.latest()).isEqualTo(r.samples().get(2));
            assertThat(r.latest().rss()).isPositive();
            Path html = r.report("request");
            assertThat(html.getFileName().toString()).endsWith("-request.html");
            List<String> lines = Files.readAllLines(html.resolveSibling(html.getFileName().toString().replace(".html", ".jsonl")));
            assertThat(lines).hasSize(3);
            assertThat(lines.get(0)).startsWith("{\"version\":3,\"source\":\"offheap-recorder\",\"pid\":" + ProcessHandle.current().pid());
            assertThat(JsonReader.parse(lines.get(0))).isNotNull();
            assertThatThrownBy(() -> r.report("../x")).hasMessageContaining("letters, digits and '-'");
            try (var files = Files.list(dir.resolve("r"))) {
                assertThat(files.map(p -> p.getFileName().toString())).as("written by a move: no temporary left")
                        .noneMatch(n -> n.endsWith(".tmp"));
            }
        }
    }

    @Test
    void aReportDirectoryThatCannotBeMadeIsRefusedAtStart() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> MemoryRecorder.start(RecorderOptions.defaults().directory(file.resolve("sub"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot create the report directory");
    }

    @Test
    void eachSampleIsAJfrEventWhileARecordingHasIt() throws Exception {
        Path jfr = dir.resolve("memory.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("dev.offheap.ProcessMemory");
            recording.start();
            try (MemoryRecorder r = MemoryRecorder.start(RecorderOptions.defaults().directory(dir)
                    .interval(Duration.ofMillis(100)).signal("none"))) {
                while (r.samples().size() < 3) {
                    Thread.sleep(50);
                }
            }
            recording.stop();
            recording.dump(jfr);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr).stream()
                .filter(e -> e.getEventType().getName().equals("dev.offheap.ProcessMemory")).toList();
        assertThat(events).hasSizeGreaterThanOrEqualTo(3);
        RecordedEvent e = events.get(0);
        assertThat(e.getLong("rss")).isPositive();
        assertThat(e.getLong("heap") + e.getLong("metaspace") + e.getLong("codeCache") + e.getLong("direct")
                + e.getLong("nativeOther") + e.getLong("files") + e.getLong("sharedMemory")).isEqualTo(e.getLong("rss"));
    }
}
