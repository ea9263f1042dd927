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

package dev.offheap.lab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The best of several measured figures, by a rule that never names a winner the measurements do not support:
 * another figure is apart from the best only when their ranges do not overlap and their medians differ by more
 * than {@code noise} (a fraction of the best's median) and more than {@code floor} (in the figures' unit).
 *
 * @param best  the figure with the best median
 * @param apart the others that are clearly worse, in the order given
 * @param close the others too close to the best to call, in the order given
 */
public record Ranking(String best, List<String> apart, List<String> close) {

    /** Ranks the non-empty ranges of {@code values}; null when fewer than two were measured. */
    public static Ranking of(Map<String, Range> values, boolean higherIsBetter, double noise, double floor) {
        String best = null;
        int measured = 0;
        for (var e : values.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            measured++;
            if (best == null || better(e.getValue().median(), values.get(best).median(), higherIsBetter)) {
                best = e.getKey();
            }
        }
        if (measured < 2) {
            return null;
        }
        Range top = values.get(best);
        List<String> apart = new ArrayList<>();
        List<String> close = new ArrayList<>();
        for (var e : values.entrySet()) {
            Range r = e.getValue();
            if (e.getKey().equals(best) || r.isEmpty()) {
                continue;
            }
            boolean far = Math.abs(top.median() - r.median()) > Math.max(noise * Math.abs(top.median()), floor);
            (far && !top.overlaps(r) ? apart : close).add(e.getKey());
        }
        return new Ranking(best, List.copyOf(apart), List.copyOf(close));
    }

    /** The best and the figures too close to it to call, in that order. */
    public List<String> leaders() {
        List<String> leaders = new ArrayList<>(List.of(best));
        leaders.addAll(close);
        return leaders;
    }

    /** Whether the best is clearly ahead of every other figure. */
    public boolean hasWinner() {
        return close.isEmpty();
    }

    private static boolean better(double a, double b, boolean higherIsBetter) {
        return higherIsBetter ? a > b : a < b;
    }
}
