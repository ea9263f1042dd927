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

import java.time.Instant;
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
        b.append("{\"version\":3,\"source\":\"offheap-recorder\",\"pid\":").append(pid);
        b.append(",\"time\":");
        string(b, s.time().toString());
        b.append(",\"vm\":");
        string(b, vm);
        long heap = 0;
        long direct = 0;
        for (MemorySample.Part p : s.parts()) {
            if (p.key().equals("heap")) {
                heap = p.bytes();
            } else if (p.key().equals("direct")) {
                direct = p.bytes();
            }
        }
        b.append(",\"rss\":");
        number(b, s.rss());
        b.append(",\"heap\":").append(heap).append(",\"direct\":").append(direct);
        b.append(",\"mapped\":null,\"malloc\":null,\"offheap\":null,\"unexplained\":0");
        b.append(",\"details\":{\"rss\":{\"anonymous\":");
        number(b, s.anonymous());
        b.append(",\"fileBacked\":");
        number(b, s.fileBacked());
        b.append(",\"sharedMemory\":");
        number(b, s.sharedMemory());
        b.append(",\"swap\":");
        number(b, s.swap());
        b.append("},\"heap\":{\"committed\":").append(s.heapCommitted()).append(",\"resident\":").append(s.heapResident())
                .append(",\"used\":").append(s.heapUsed());
        b.append("},\"threads\":").append(s.threads());
        b.append(",\"container\":{\"directory\":");
        if (cgroupDirectory == null) {
            b.append("null");
        } else {
            string(b, cgroupDirectory);
        }
        b.append(",\"limit\":");
        number(b, s.containerLimit());
        b.append(",\"usage\":");
        number(b, s.containerUsage());
        b.append(",\"workingSet\":");
        number(b, s.containerWorkingSet());
        b.append("},\"ceilings\":{\"items\":[");
        for (int i = 0; i < ceilings.items().size(); i++) {
            Ceilings.Item c = ceilings.items().get(i);
            b.append(i == 0 ? "" : ",").append("{\"key\":");
            string(b, c.key());
            b.append(",\"bytes\":").append(c.bytes()).append(",\"source\":");
            string(b, c.source());
            b.append(",\"kind\":\"limit\"}");
        }
        b.append("],\"sum\":").append(ceilings.sum()).append("}}");
        b.append(",\"attribution\":[");
        List<MemorySample.Part> parts = s.parts();
        for (int i = 0; i < parts.size(); i++) {
            MemorySample.Part p = parts.get(i);
            b.append(i == 0 ? "" : ",").append("{\"part\":");
            string(b, p.key());
            b.append(",\"bytes\":").append(p.bytes()).append(",\"exact\":false,\"bound\":null,\"source\":");
            string(b, p.source());
            b.append('}');
        }
        b.append("],\"findings\":[");
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            b.append(i == 0 ? "" : ",").append("{\"id\":");
            string(b, f.id());
            b.append(",\"severity\":");
            string(b, f.severity());
            b.append(",\"text\":");
            string(b, f.text());
            b.append('}');
        }
        return b.append("]}").toString();
    }

    private static void number(StringBuilder b, long n) {
        if (n < 0) {
            b.append("null");
        } else {
            b.append(n);
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

    /** @return an instant as the JSON documents write it */
    static String time(Instant t) {
        return t.toString();
    }
}
