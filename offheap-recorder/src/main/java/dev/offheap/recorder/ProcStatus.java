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

import java.util.HashMap;
import java.util.Map;

/** The figures of {@code /proc/self/status} the recorder reads, in bytes ({@code VmRSS:  1234 kB}). */
final class ProcStatus {
    private ProcStatus() {}

    static Map<String, Long> parse(String text) {
        Map<String, Long> figures = new HashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String key = line.substring(0, colon);
            String value = line.substring(colon + 1).trim();
            boolean kilobytes = value.endsWith(" kB");
            if (kilobytes) {
                value = value.substring(0, value.length() - 3).trim();
            }
            try {
                long n = Long.parseLong(value);
                figures.put(key, kilobytes ? n * 1024 : n);
            } catch (NumberFormatException e) {
                // not a number (Name, State, the masks): not read
            }
        }
        return figures;
    }
}
