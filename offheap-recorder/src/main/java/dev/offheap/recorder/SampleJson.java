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

import java.util.List;

/**
 * A sample as one line of JSON, in the schema of {@code offheap inspect --json} (docs/inspect-json.md) where the
 * figures mean the same, with {@code "source": "offheap-recorder"}: so that one command charts both.
 */
final class SampleJson {
    private SampleJson() {}

    static String line(MemorySample s, long pid, String vm, Ceilings ceilings, String cgroupDirectory,
            List<Finding> findings) {
        StringBuilder b = new StringBuilder(1536);
        List<MemorySample.Part> parts = s.parts();
        long heap = 0;
        long direct = 0;
        for (MemorySample.Part p : parts) {
            if (p.key().equals("heap")) {
                heap = p.bytes();
            } else if (p.key().equals("direct")) {
                direct = p.bytes();
            }
        }
        b.append('{');
        exact(b, "version", 3);
        text(b, "source", "offheap-recorder");
        exact(b, "pid", pid);
        text(b, "time", s.time().toString());
        text(b, "vm", vm);
        known(b, "rss", s.rss());
        exact(b, "heap", heap);
        exact(b, "direct", direct);
        b.append(",\"mapped\":null,\"malloc\":null,\"offheap\":null,\"unexplained\":0");
        key(b, "details").append('{');
        key(b, "rss").append('{');
        known(b, "anonymous", s.anonymous());
        known(b, "fileBacked", s.fileBacked());
        known(b, "sharedMemory", s.sharedMemory());
        known(b, "swap", s.swap());
        key(b.append('}'), "heap").append('{');
        exact(b, "committed", s.heapCommitted());
        exact(b, "resident", s.heapResident());
        exact(b, "used", s.heapUsed());
        b.append('}');
        exact(b, "threads", s.threads());
        key(b, "container").append('{');
        text(b, "directory", cgroupDirectory);
        known(b, "limit", s.containerLimit());
        known(b, "usage", s.containerUsage());
        known(b, "workingSet", s.containerWorkingSet());
        key(b.append('}'), "ceilings").append('{');
        key(b, "items").append('[');
        for (Ceilings.Item c : ceilings.items()) {
            comma(b).append('{');
            text(b, "key", c.key());
            exact(b, "bytes", c.bytes());
            text(b, "source", c.source());
            text(b, "kind", "limit");
            b.append('}');
        }
        b.append(']');
        exact(b, "sum", ceilings.sum());
        b.append("}}");
        key(b, "attribution").append('[');
        for (MemorySample.Part p : parts) {
            comma(b).append('{');
            text(b, "part", p.key());
            exact(b, "bytes", p.bytes());
            b.append(",\"exact\":false,\"bound\":null");
            text(b, "source", p.source());
            b.append('}');
        }
        key(b.append(']'), "findings").append('[');
        for (Finding f : findings) {
            comma(b).append('{');
            text(b, "id", f.id());
            text(b, "severity", f.severity());
            text(b, "text", f.text());
            b.append('}');
        }
        return b.append("]}").toString();
    }

    /** A comma unless the object or array has just begun. */
    private static StringBuilder comma(StringBuilder b) {
        char last = b.charAt(b.length() - 1);
        return last == '{' || last == '[' ? b : b.append(',');
    }

    private static StringBuilder key(StringBuilder b, String key) {
        return comma(b).append('"').append(key).append("\":");
    }

    /** A figure as it is. */
    private static void exact(StringBuilder b, String key, long n) {
        key(b, key).append(n);
    }

    /** A figure that may not have been read ({@link MemorySample#UNKNOWN}): null then. */
    private static void known(StringBuilder b, String key, long n) {
        if (n < 0) {
            key(b, key).append("null");
        } else {
            key(b, key).append(n);
        }
    }

    private static void text(StringBuilder b, String key, String value) {
        if (value == null) {
            key(b, key).append("null");
        } else {
            string(key(b, key), value);
        }
    }

    static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
