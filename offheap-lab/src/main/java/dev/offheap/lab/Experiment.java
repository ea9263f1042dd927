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

/** One experiment of {@code offheap lab}, selected by {@link #name()} with {@code --only}. */
public interface Experiment {
    /** Short name for {@code --only}: {@code alloc}, {@code io}, {@code order}, {@code store}, {@code gc}, {@code server}. */
    String name();

    /** One line saying what it measures. */
    String title();

    /**
     * Runs the experiment at the context's scale. Problems of the environment (no free port, no wrk, not enough
     * disk, a JVM option this JDK refuses) do not throw: the result says what was skipped and why, and the other
     * experiments still run.
     */
    ExperimentResult run(LabContext context) throws Exception;

    /**
     * How many threads the experiment itself keeps running (a benchmark fork: one; a server and its load
     * generator, or a JVM with concurrent GC threads: more), so that its own load is not taken for a busy machine.
     */
    default int busyThreads() {
        return 1;
    }
}
