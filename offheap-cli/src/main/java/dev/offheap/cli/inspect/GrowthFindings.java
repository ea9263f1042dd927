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

import dev.offheap.account.Bytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * In watch mode, the parts that grow steadily ({@link Growth}): each named with its rate, for how long, malloc's
 * growth split into memory in use and memory freed but kept, and the time left to the container's limit (or the
 * part's own ceiling) at that rate. Quiet on a heap's sawtooth and on a cache that filled and stopped.
 */
final class GrowthFindings {
    /** Time left below which a growing part is critical. */
    static final Duration CRITICAL_WITHIN = Duration.ofMinutes(10);

    private GrowthFindings() {}

    static List<Finding> of(WatchHistory history, Sample now) {
        List<Finding> found = new ArrayList<>();
        if (history == null) {
            return found;
        }
        for (Attribution.Part part : now.attribution().parts()) {
            history.growth(part.key()).ifPresent(g -> found.add(finding(part.key(), part.label(), g, history, now)));
        }
        history.growth(WatchHistory.UNEXPLAINED)
                .ifPresent(g -> found.add(finding(WatchHistory.UNEXPLAINED, "unexplained", g, history, now)));
        return found;
    }

    private static Finding finding(String key, String label, Growth g, WatchHistory history, Sample now) {
        Duration span = Duration.between(g.since(), now.time());
        List<Growth.Point> points = history.points(key);
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%s is growing steadily: %s to %s in %s,"
                + " %.1f MiB/min (least squares over %d samples), never falling back as a heap or a filled cache"
                + " does.", label, Bytes.human(points.getFirst().bytes()), Bytes.human(g.now()), human(span),
                g.mibPerMinute(), points.size()));
        if (key.equals(PartName.MALLOC.key()) && now.reports().malloc() != null) {
            double inUse = history.rate(WatchHistory.MALLOC_IN_USE) * 60 / (1 << 20);
            double free = history.rate(WatchHistory.MALLOC_FREE) * 60 / (1 << 20);
            text.append(String.format(Locale.ROOT, " Of it, memory in use grows %.1f MiB/min and memory freed but kept"
                    + " %.1f MiB/min (malloc_info): %s", inUse, free, inUse >= free
                    ? "live allocations, a leak or a cache without a bound (--native-callers names the Java code"
                    + " behind them)." : "memory freed that malloc keeps, retention: MALLOC_ARENA_MAX=2 or trimming is"
                    + " the remedy, not the code."));
        }
        Optional<Duration> left = timeLeft(key, g, now);
        left.ifPresent(d -> text.append(" At this rate ").append(limitName(key, now)).append(" is reached in ")
                .append(human(d)).append('.'));
        String id = "growing-" + key;
        return left.isPresent() && left.get().compareTo(CRITICAL_WITHIN) < 0
                ? Finding.critical(id, text.toString()) : Finding.warning(id, text.toString());
    }

    /** The container's limit (usage to it), else the part's own ceiling; empty when there is none. */
    private static Optional<Duration> timeLeft(String key, Growth g, Sample now) {
        ContainerMemory c = now.containerMemory();
        if (c != null && c.limit() != null && c.limit().value() > 0) {
            ContainerMemory.Figure measure = c.workingSet() != null ? c.workingSet() : c.usage();
            if (measure != null) {
                return Optional.of(g.timeFor(Math.max(0, c.limit().value() - measure.value())));
            }
        }
        if (key.equals(PartName.HEAP.key()) && now.jvm().heapMax() > 0) {
            return Optional.of(g.timeFor(Math.max(0, now.jvm().heapMax() - g.now())));
        }
        return Optional.empty();
    }

    private static String limitName(String key, Sample now) {
        ContainerMemory c = now.containerMemory();
        if (c != null && c.limit() != null && c.limit().value() > 0) {
            return "the container's limit (" + Bytes.human(c.limit().value()) + ")";
        }
        return "the maximum heap (" + Bytes.human(now.jvm().heapMax()) + ")";
    }

    /** "35 s", "7 min 8 s", "2 h 5 min". */
    static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return (s / 60) + " min" + (s % 60 == 0 ? "" : " " + (s % 60) + " s");
        }
        return (s / 3600) + " h" + (s % 3600 / 60 == 0 ? "" : " " + (s % 3600 / 60) + " min");
    }
}
