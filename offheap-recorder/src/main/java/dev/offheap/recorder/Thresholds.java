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
 * Shares of a limit at which a report is written: each fires once as the working set crosses it upwards, and is
 * armed again once the working set has fallen five points below it, so that a working set hovering at a threshold
 * writes one report, not one per sample.
 */
final class Thresholds {
    private static final int REARM_POINTS = 5;
    private final int[] percents;
    private final boolean[] fired;

    Thresholds(List<Integer> percents) {
        this.percents = new int[percents.size()];
        for (int i = 0; i < this.percents.length; i++) {
            this.percents[i] = percents.get(i);
        }
        java.util.Arrays.sort(this.percents);
        this.fired = new boolean[this.percents.length];
    }

    /**
     * @param share the working set over the limit, or negative when not known
     * @return the highest threshold crossed by this share and not fired since it was last armed, or -1
     */
    int cross(double share) {
        if (share < 0) {
            return -1;
        }
        double percent = share * 100;
        int crossed = -1;
        for (int i = 0; i < percents.length; i++) {
            if (percent >= percents[i] && !fired[i]) {
                fired[i] = true;
                crossed = percents[i];
            } else if (percent < percents[i] - REARM_POINTS) {
                fired[i] = false;
            }
        }
        return crossed;
    }
}
