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

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The target's virtual threads and their stacks, which live in the heap: a parked virtual thread's frames are a
 * {@code jdk.internal.vm.StackChunk} object, not a thread stack, so neither {@code /proc} nor NMT shows them.
 * Counted from {@code GC.class_histogram -all}: a walk of the heap at a safepoint (no collection first, so
 * virtual threads that ended but are not yet collected count too). Read only when asked ({@code --virtual-threads}).
 *
 * @param count {@code java.lang.VirtualThread} objects
 * @param stackBytes the bytes of their stack chunks in the heap
 */
record VirtualThreads(long count, long stackBytes) {
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);

    /** From the histogram's rows; 0 for a class that has none. */
    static VirtualThreads parse(String histogram) {
        long count = 0;
        long stacks = 0;
        Matcher row = ROW.matcher(histogram);
        while (row.find()) {
            switch (row.group(3)) {
                case "java.lang.VirtualThread" -> count += Long.parseLong(row.group(1));
                case "jdk.internal.vm.StackChunk" -> stacks += Long.parseLong(row.group(2));
                default -> { }
            }
        }
        return new VirtualThreads(count, stacks);
    }
}
