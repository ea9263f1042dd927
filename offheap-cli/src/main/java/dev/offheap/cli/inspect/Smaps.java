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

package dev.offheap.cli.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** Parses the text of {@code /proc/PID/smaps} into {@link Mapping}s, in address order. */
final class Smaps {
    private Smaps() {}

    static List<Mapping> parse(String text) {
        List<Mapping> mappings = new ArrayList<>();
        Builder current = null;
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (isHeader(line)) {
                if (current != null) {
                    mappings.add(current.build());
                }
                current = new Builder(line);
            } else if (current != null) {
                current.field(line);
            }
        }
        if (current != null) {
            mappings.add(current.build());
        }
        return mappings;
    }

    private static final Pattern HEADER = Pattern.compile("^[0-9a-f]+-[0-9a-f]+ ");

    /** A header starts with {@code start-end} in hex; field lines start with a name and a colon. */
    private static boolean isHeader(String line) {
        return HEADER.matcher(line).find();
    }

    private static final class Builder {
        private final long start;
        private final long end;
        private final String permissions;
        private final String path;
        private long rss;
        private long anonymous;
        private long shared;

        Builder(String header) {
            String[] parts = header.trim().split("\\s+", 6);
            String[] range = parts[0].split("-");
            start = Long.parseUnsignedLong(range[0], 16);
            end = Long.parseUnsignedLong(range[1], 16);
            permissions = parts[1];
            path = parts.length > 5 ? parts[5].trim() : "";
        }

        void field(String line) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                return;
            }
            String name = line.substring(0, colon);
            switch (name) {
                case "Rss" -> rss = kilobytes(line, colon);
                case "Anonymous" -> anonymous = kilobytes(line, colon);
                case "Shared_Clean", "Shared_Dirty" -> shared += kilobytes(line, colon);
                default -> { }
            }
        }

        private static long kilobytes(String line, int colon) {
            String value = line.substring(colon + 1).trim();
            int space = value.indexOf(' ');
            return Long.parseLong(space < 0 ? value : value.substring(0, space)) * 1024;
        }

        Mapping build() {
            return new Mapping(start, end, permissions, path, rss, anonymous, shared);
        }
    }
}
