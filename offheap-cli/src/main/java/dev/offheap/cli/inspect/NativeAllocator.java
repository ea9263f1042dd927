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

import java.nio.file.Path;

/**
 * A memory allocator other than glibc's malloc that a process uses: one that replaces malloc for the whole
 * process (a library named after it, preloaded or linked), or one linked inside a library for that library's
 * own use (jemalloc inside DuckDB's JNI library), which neither NMT nor glibc's statistics ever see.
 *
 * @param name {@code jemalloc}, {@code mimalloc} or {@code tcmalloc}
 * @param library the file it was found in, as the process maps it
 * @param linkedIn true when it lives inside another library (found by its own messages in the file), false
 *     when the library is the allocator itself
 */
record NativeAllocator(String name, String library, boolean linkedIn) {

    /**
     * Short, for a table's label: {@code jemalloc}, or {@code jemalloc in libduckdb_java*.so} for a library
     * extracted to a temporary file (a run of digits its loader added is a {@code *}).
     */
    String label() {
        return linkedIn ? name + " in " + fileName().replaceAll("[0-9]{8,}", "*") : name;
    }

    /** Where it was found, in words. */
    String describe() {
        return linkedIn ? name + " linked into " + library + " (found by its own messages in the file)"
                : name + " (" + library + ", in place of glibc's malloc)";
    }

    /** The component whose allocator it is, when the library is one offheap knows; else null. */
    KnownLibrary component() {
        return linkedIn ? KnownLibrary.of(library) : null;
    }

    String fileName() {
        return Path.of(library.replace(" (deleted)", "")).getFileName().toString();
    }

    /** Libraries that bring their own allocator, and the setting that bounds what it keeps. */
    enum KnownLibrary {
        DUCKDB("libduckdb", "DuckDB", "DuckDB's memory_limit setting bounds it (by default 80 % of the memory DuckDB"
                + " finds): SET memory_limit = '1GB', or the connection property memory_limit");

        private final String filePrefix;
        final String product;
        final String remedy;

        KnownLibrary(String filePrefix, String product, String remedy) {
            this.filePrefix = filePrefix;
            this.product = product;
            this.remedy = remedy;
        }

        static KnownLibrary of(String library) {
            String file = Path.of(library).getFileName().toString();
            for (KnownLibrary known : values()) {
                if (file.startsWith(known.filePrefix)) {
                    return known;
                }
            }
            return null;
        }
    }
}
