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

package dev.offheap.buffer;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The thread and stack of a lease's acquisition or release, kept for reports (leaks, use after release). */
final class CallSite extends Throwable {
    private static final long serialVersionUID = 1L;
    private static final int FRAMES_IN_MESSAGE = 8;

    private CallSite(String what) {
        super(what + " by thread '" + Thread.currentThread().getName() + "'");
    }

    static CallSite acquired() {
        return new CallSite("acquired");
    }

    static CallSite released() {
        return new CallSite("released");
    }

    /** Both sites, a few frames each, for an exception message. */
    static String describe(Throwable acquiredAt, Throwable releasedAt) {
        StringBuilder out = new StringBuilder();
        append(out, acquiredAt);
        append(out, releasedAt);
        return out.toString();
    }

    private static void append(StringBuilder out, Throwable site) {
        if (site == null) {
            return;
        }
        StackTraceElement[] frames = site.getStackTrace();
        out.append("\n  ").append(site.getMessage()).append(" at\n")
                .append(Arrays.stream(frames).limit(FRAMES_IN_MESSAGE).map(f -> "    " + f)
                        .collect(Collectors.joining("\n")));
        if (frames.length > FRAMES_IN_MESSAGE) {
            out.append("\n    ... ").append(frames.length - FRAMES_IN_MESSAGE).append(" more");
        }
    }
}
