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
 * The parts {@link Attribution} splits RSS into: the one list of their names, in JSON ({@link #key}) and for
 * people ({@link #label}). An owned range names the part its pages go to by the same key.
 */
enum PartName {
    HEAP("heap", "Java heap"),
    CODE_CACHE("codeCache", "code cache"),
    PROGRAM_FILES("programFiles", "program files"),
    MAPPED("mapped", "mapped files"),
    SHARED_MEMORY("sharedMemory", "shared memory"),
    THREAD_STACKS("threadStacks", "thread stacks"),
    METASPACE("metaspace", "metaspace"),
    GC("gc", "GC structures"),
    OTHER_JVM("otherJvm", "other JVM mappings"),
    OFFHEAP("offheap", "offheap pools"),
    MALLOC("malloc", "malloc (glibc)"),
    /** Labelled by the allocators found ({@code jemalloc in libduckdb_java*.so}), not by this label. */
    OTHER_ALLOCATOR("otherAllocator", "other allocator");

    private final String key;
    private final String label;

    PartName(String key, String label) {
        this.key = key;
        this.label = label;
    }

    /** Its name in JSON and in owned ranges. */
    String key() {
        return key;
    }

    /** Its name for people. */
    String label() {
        return label;
    }
}
