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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A record read back: its samples in time order, each with its parts, the container's limit and working set, the
 * JVM's ceilings and its findings. Reads the lines of {@code offheap inspect --record} and of the recorder alike;
 * {@code unexplained}, when a sample has some, is a part of its own so that the parts add up to RSS. A line that
 * is not a sample (blank, cut short by a kill) is counted and skipped.
 */
record Timeline(List<Point> points, List<String> partKeys, String vm, long pid, String source, int skippedLines) {
    /** One sample. A figure the sample does not have is -1. */
    record Point(Instant time, long rss, Map<String, Long> parts, long limit, long workingSet, long ceilings,
            List<Finding> findings) {
        long stacked() {
            long sum = 0;
            for (long v : parts.values()) {
                sum += v;
            }
            return sum;
        }
    }

    static Timeline parse(List<String> lines) {
        List<Point> points = new ArrayList<>();
        Set<String> keys = new LinkedHashSet<>();
        String vm = "";
        long pid = -1;
        String source = "offheap inspect";
        int skipped = 0;
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            Map<?, ?> doc;
            try {
                Object parsed = JsonReader.parse(line);
                if (!(parsed instanceof Map<?, ?> m) || !(m.get("time") instanceof String) || !(m.get("attribution") instanceof List)) {
                    skipped++;
                    continue;
                }
                doc = m;
            } catch (IllegalArgumentException e) {
                skipped++;
                continue;
            }
            Point p = point(doc);
            if (p == null) {
                skipped++;
                continue;
            }
            keys.addAll(p.parts().keySet());
            points.add(p);
            vm = doc.get("vm") instanceof String v ? v : vm;
            pid = doc.get("pid") instanceof Long n ? n : pid;
            source = doc.get("source") instanceof String s ? s : source;
        }
        points.sort((a, b) -> a.time().compareTo(b.time()));
        return new Timeline(List.copyOf(points), List.copyOf(keys), vm, pid, source, skipped);
    }

    private static Point point(Map<?, ?> doc) {
        Instant time;
        try {
            time = Instant.parse((String) doc.get("time"));
        } catch (RuntimeException e) {
            return null;
        }
        Map<String, Long> parts = new LinkedHashMap<>();
        for (Object o : (List<?>) doc.get("attribution")) {
            if (o instanceof Map<?, ?> part && part.get("part") instanceof String key && part.get("bytes") instanceof Long bytes) {
                parts.merge(key, bytes, Long::sum);
            }
        }
        long unexplained = number(doc.get("unexplained"));
        if (unexplained > 0) {
            parts.put("unexplained", unexplained);
        }
        Map<?, ?> details = doc.get("details") instanceof Map<?, ?> d ? d : Map.of();
        Map<?, ?> container = details.get("container") instanceof Map<?, ?> c ? c : Map.of();
        Map<?, ?> ceilings = details.get("ceilings") instanceof Map<?, ?> c ? c : Map.of();
        List<Finding> findings = new ArrayList<>();
        if (doc.get("findings") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> f) {
                    findings.add(new Finding(String.valueOf(f.get("id")), String.valueOf(f.get("severity")),
                            String.valueOf(f.get("text"))));
                } else if (o instanceof String text) {
                    findings.add(new Finding("finding", "info", text));
                }
            }
        }
        return new Point(time, number(doc.get("rss")), parts, number(container.get("limit")),
                number(container.get("workingSet")), number(ceilings.get("sum")), List.copyOf(findings));
    }

    private static long number(Object o) {
        return o instanceof Long n ? n : o instanceof Double d ? d.longValue() : -1;
    }

    /**
     * The findings as events on the time axis: a finding where the sample before did not have one of its id (a
     * finding shown at every sample while it holds is one event, at its first sample).
     */
    List<Event> events() {
        List<Event> events = new ArrayList<>();
        Set<String> before = Set.of();
        for (Point p : points) {
            Set<String> now = new LinkedHashSet<>();
            for (Finding f : p.findings()) {
                if (now.add(f.id()) && !before.contains(f.id())) {
                    events.add(new Event(p.time(), f));
                }
            }
            before = now;
        }
        return events;
    }

    /** A finding where it first appears. */
    record Event(Instant time, Finding finding) {}

    /** @return the part's bytes per second over the record, least squares (0 with fewer than two samples) */
    double rate(String key) {
        int n = 0;
        double t0 = points.isEmpty() ? 0 : points.get(0).time().toEpochMilli();
        double sx = 0;
        double sy = 0;
        double sxx = 0;
        double sxy = 0;
        for (Point p : points) {
            Long v = p.parts().get(key);
            if (v == null) {
                continue;
            }
            double x = (p.time().toEpochMilli() - t0) / 1000.0;
            n++;
            sx += x;
            sy += v;
            sxx += x * x;
            sxy += x * v;
        }
        double d = n * sxx - sx * sx;
        return n < 2 || d == 0 ? 0 : (n * sxy - sx * sy) / d;
    }
}
