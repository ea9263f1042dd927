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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a mapped array forces to the disk, and when, as the JDK's {@code jdk.FileForce} events show it (one per
 * {@code FileChannel.force}, with the channel's path and whether metadata went too): a new file and then its
 * directory entry; on {@code grow}, the reserved space and then the new header; on {@code force}, the file, and
 * nothing for a file open read-only.
 */
class MappedArrayForcesTest {
    @TempDir
    Path dir;

    /** A forced path and whether its metadata was forced too. */
    record Forced(String path, boolean metaData) {}

    private static Recording startRecording() {
        Recording recording = new Recording();
        recording.enable("jdk.FileForce").withoutThreshold().withStackTrace();
        recording.start();
        return recording;
    }

    /** The forces of {@code dir} and the files in it, in order. */
    private List<Forced> stop(Recording recording) throws IOException {
        recording.stop();
        Path events = dir.resolve("forces.jfr");
        recording.dump(events);
        List<RecordedEvent> all = RecordingFile.readAllEvents(events);
        return all.stream()
                .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
                .filter(e -> e.getString("path") != null && e.getString("path").startsWith(dir.toString()))
                .map(e -> new Forced(e.getString("path"), e.getBoolean("metaData")))
                .toList();
    }

    @Test
    void aNewFileIsForcedAndThenItsDirectoryEntry() throws IOException {
        Path file = dir.resolve("new.npy");
        List<Forced> forced;
        try (Recording recording = startRecording()) {
            MappedArray.create(file, ElementType.LONG, 100).close();
            forced = stop(recording);
        }
        assertThat(forced).containsExactly(new Forced(file.toString(), true), new Forced(dir.toString(), true));
    }

    @Test
    void growForcesTheReservedSpaceAndThenTheNewHeader() throws IOException {
        Path file = dir.resolve("grown.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 100)) {
            List<Forced> forced;
            try (Recording recording = startRecording()) {
                array.grow(100_000);
                forced = stop(recording);
            }
            assertThat(forced).containsExactly(new Forced(file.toString(), true), new Forced(file.toString(), true));
        }
    }

    @Test
    void forceForcesAWritableFileAndLeavesAReadOnlyOneAlone() throws IOException {
        Path file = dir.resolve("forced.npy");
        MappedArray.create(file, ElementType.INT, 10).close();
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE); IntArray view = array.ints()) {
            view.set(3, 3);
            List<Forced> forced;
            try (Recording recording = startRecording()) {
                array.force();
                forced = stop(recording);
            }
            assertThat(forced).containsExactly(new Forced(file.toString(), true));
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY); IntArray view = array.ints()) {
            List<Forced> forced;
            try (Recording recording = startRecording()) {
                array.force();
                forced = stop(recording);
            }
            assertThat(forced).isEmpty();
            assertThat(view.get(3)).isEqualTo(3);
        }
    }
}
