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

package dev.offheap.os;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What a file really takes on disk, as {@code stat} reports it (holes and reserved space seen as they are). */
public final class DiskUsage {
    private DiskUsage() {
    }

    /** Disk space taken by the file, from {@code stat}; skips the test where there is no such command. */
    public static long allocatedBytes(Path file) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(List.of("stat", "-c", "%b %B", file.toString())).redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            assumeTrue(false, "no stat command: " + e.getMessage());
            throw e;
        }
        Waits.Finished stat = Waits.finish(process, Duration.ofSeconds(30), "stat of " + file);
        String output = stat.output().strip();
        assumeTrue(stat.exitCode() == 0, () -> "stat -c failed: " + output);
        String[] fields = output.split(" ");
        return Long.parseLong(fields[0]) * Long.parseLong(fields[1]);
    }
}
