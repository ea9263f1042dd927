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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The figures of every sample a watch has taken (at most {@link #CAPACITY}, the oldest dropped): each part of RSS,
 * what nothing explains, and malloc's memory in use and free (malloc_info), to tell steady growth ({@link Growth})
 * from what healthy memory does.
 */
final class WatchHistory {
    /** Two hours of samples every 10 s. */
    static final int CAPACITY = 720;
    static final String UNEXPLAINED = "unexplained";
    static final String MALLOC_IN_USE = "mallocInUse";
    static final String MALLOC_FREE = "mallocFree";

    private final Deque<Figures> figures = new ArrayDeque<>();

    private record Figures(java.time.Instant time, Map<String, Long> bytes) {}

    /** Adds a look's figures. */
    void add(Sample s) {
        Map<String, Long> bytes = new LinkedHashMap<>();
        for (Attribution.Part p : s.attribution().parts()) {
            bytes.put(p.key(), p.bytes());
        }
        bytes.put(UNEXPLAINED, s.attribution().unexplained());
        MallocInfo malloc = s.reports().malloc();
        if (malloc != null) {
            bytes.put(MALLOC_IN_USE, malloc.inUseBytes());
            bytes.put(MALLOC_FREE, malloc.freeBytes());
        }
        figures.addLast(new Figures(s.time(), bytes));
        if (figures.size() > CAPACITY) {
            figures.removeFirst();
        }
    }

    int size() {
        return figures.size();
    }

    /** The figure's points, oldest first, from the samples that have it. */
    List<Growth.Point> points(String key) {
        List<Growth.Point> points = new ArrayList<>();
        for (Figures s : figures) {
            Long b = s.bytes().get(key);
            if (b != null) {
                points.add(new Growth.Point(s.time(), b));
            }
        }
        return points;
    }

    /** The figure's steady growth over the samples so far, if any. */
    Optional<Growth> growth(String key) {
        return Growth.of(points(key));
    }

    /** The figure's rate over the samples so far (least squares), bytes a second; 0 with fewer than two. */
    double rate(String key) {
        return Growth.slope(points(key));
    }
}
