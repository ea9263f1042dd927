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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a child's {@code -Xlog:gc,gc+phases=debug,safepoint} file says: every safepoint's total time (all
 * stop-the-world pauses, whatever the collector) and the time spent on reference processing (G1 inside its
 * pauses, ZGC concurrently).
 */
public record GcLog(long[] pausesNanos, double referenceMillis) {
    /** The options that write the log this class reads. */
    public static String option(Path file) {
        return "-Xlog:gc,gc+phases=debug,safepoint:file=" + file;
    }

    private static final Pattern SAFEPOINT = Pattern.compile("\\[safepoint *\\].*Total: (\\d+) ns");
    private static final Pattern REFERENCES =
            Pattern.compile("(?:Reference Processing:|Concurrent References Process) ([0-9.]+)ms");

    public static GcLog read(Path file) throws IOException {
        List<Long> pauses = new ArrayList<>();
        double references = 0;
        for (String line : Files.readAllLines(file)) {
            Matcher pause = SAFEPOINT.matcher(line);
            if (pause.find()) {
                pauses.add(Long.parseLong(pause.group(1)));
            }
            Matcher ref = REFERENCES.matcher(line);
            if (ref.find()) {
                references += Double.parseDouble(ref.group(1));
            }
        }
        return new GcLog(pauses.stream().mapToLong(Long::longValue).toArray(), references);
    }
}
