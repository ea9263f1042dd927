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
 * One mapping of {@code /proc/PID/smaps}, sizes in bytes.
 *
 * @param start first address
 * @param end address after the last byte
 * @param permissions {@code rw-p}, {@code ---p}, {@code r-xs}...
 * @param path the file, a pseudo path such as {@code [heap]} or {@code [stack]}, or empty for anonymous memory
 * @param rss resident bytes
 * @param anonymous resident bytes that are anonymous (including copied-on-write pages of private file mappings)
 * @param shared resident bytes also mapped by another process ({@code Shared_Clean + Shared_Dirty})
 */
record Mapping(long start, long end, String permissions, String path, long rss, long anonymous, long shared) {

    long size() {
        return end - start;
    }

    boolean isAnonymous() {
        return path.isEmpty() || path.startsWith("[anon:");
    }

    boolean isInaccessible() {
        return permissions.startsWith("---");
    }

    boolean isSharedMapping() {
        return permissions.endsWith("s");
    }
}
