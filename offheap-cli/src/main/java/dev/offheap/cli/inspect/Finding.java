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

/**
 * One thing a sample shows that a user should know, in plain words that name its figures and where they come
 * from, and say what to do.
 *
 * @param id stable across versions, for scripts and alerts (kebab case, e.g. {@code malloc-fragmentation})
 * @param severity how much it matters
 * @param text the finding for people
 */
record Finding(String id, Severity severity, String text) {

    /** How much a finding matters. */
    enum Severity {
        /** Worth knowing; nothing is wrong (what a native allocator holds, where memory is). */
        INFO,
        /** Memory is wasted or unbounded: it will matter under more load or over time. */
        WARNING,
        /** The process is near, or has reached, a limit it is killed at. */
        CRITICAL;

        /** Its name in JSON and in the table. */
        String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    static Finding info(String id, String text) {
        return new Finding(id, Severity.INFO, text);
    }

    static Finding warning(String id, String text) {
        return new Finding(id, Severity.WARNING, text);
    }

    static Finding critical(String id, String text) {
        return new Finding(id, Severity.CRITICAL, text);
    }
}
