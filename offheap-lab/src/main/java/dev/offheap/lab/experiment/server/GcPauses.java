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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stop-the-world pauses in a JVM's {@code -Xlog:gc:file=...} log, in milliseconds and in the order logged:
 * every {@code Pause ...} line (G1's young, remark, cleanup and full pauses) by the duration at its end;
 * concurrent phases are not pauses and are left out.
 */
public final class GcPauses {
    private static final Pattern PAUSE = Pattern.compile("\\bPause\\b.*\\s([0-9]+(?:\\.[0-9]+)?)ms\\s*$");

    private GcPauses() {}

    /** The option that makes a JVM write the log this class reads. */
    public static String option(Path file) {
        return "-Xlog:gc:file=" + file;
    }

    /** The pauses logged so far in {@code file}; empty if it does not exist yet. */
    public static List<Double> read(Path file) throws IOException {
        return Files.exists(file) ? parse(Files.readAllLines(file)) : List.of();
    }

    /** The pauses among the lines of a gc log. */
    static List<Double> parse(List<String> lines) {
        List<Double> pauses = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                pauses.add(Double.parseDouble(m.group(1)));
            }
        }
        return pauses;
    }
}
