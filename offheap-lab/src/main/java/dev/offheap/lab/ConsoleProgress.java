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

package dev.offheap.lab;

import java.io.PrintStream;
import java.util.Locale;

/** Prints a progress line per step of the running experiment: which one, how far, about how long is left. */
final class ConsoleProgress implements LabContext.Progress {
    private final PrintStream out;
    private final String experiment;
    private final long start = System.nanoTime();

    ConsoleProgress(PrintStream out, String experiment) {
        this.out = out;
        this.experiment = experiment;
    }

    @Override
    public void update(String what, double fraction) {
        double f = Math.clamp(Double.isNaN(fraction) ? 0 : fraction, 0, 1);
        double elapsed = (System.nanoTime() - start) / 1e9;
        String left = f >= 1 ? "done" : f <= 0 ? "estimating time left"
                : String.format(Locale.ROOT, "about %.0f s left", elapsed / f * (1 - f));
        out.printf(Locale.ROOT, "  %-7s %3.0f%%  %-28s %5.1f s, %s%n", experiment, f * 100, what, elapsed, left);
        out.flush();
    }
}
