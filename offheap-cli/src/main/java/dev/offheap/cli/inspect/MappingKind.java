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

/** What a mapping of the target holds, as far as its address, permissions and path tell. */
enum MappingKind {
    JAVA_HEAP("Java heap"),
    CODE_CACHE("code cache"),
    THREAD_STACK("thread stacks"),
    NATIVE_HEAP("brk heap (malloc's main arena)"),
    MALLOC_ARENA("malloc's other arenas (64 MiB heaps)"),
    ANONYMOUS("other anonymous"),
    PROGRAM_FILE("program files (JDK, libraries, jars)"),
    DATA_FILE("data files (mapped buffers, spill files)"),
    SHARED_MEMORY("shared memory (memfd, /dev/shm)"),
    KERNEL("kernel ([vdso], [vvar])");

    private final String label;

    MappingKind(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** The JSON key: {@code JAVA_HEAP} is {@code javaHeap}. */
    String key() {
        StringBuilder key = new StringBuilder();
        for (String word : name().toLowerCase(java.util.Locale.ROOT).split("_")) {
            key.append(key.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return key.toString();
    }
}
