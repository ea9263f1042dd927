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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The last samples, each with the findings it raised; the oldest is dropped once the history is full. */
final class History {
    /** A sample and the findings it raised. */
    record Entry(MemorySample sample, List<Finding> findings) {}

    private final int capacity;
    private final ArrayDeque<Entry> entries;

    History(int capacity) {
        this.capacity = capacity;
        this.entries = new ArrayDeque<>(Math.min(capacity, 1024));
    }

    synchronized void add(MemorySample sample, List<Finding> findings) {
        if (entries.size() == capacity) {
            entries.removeFirst();
        }
        entries.addLast(new Entry(sample, findings));
    }

    synchronized List<Entry> entries() {
        return new ArrayList<>(entries);
    }

    synchronized Entry last() {
        return entries.peekLast();
    }
}
