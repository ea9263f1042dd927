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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Finds the allocators a process uses besides glibc's malloc, from the libraries it maps: a library named after
 * the allocator (jemalloc preloaded), or an allocator linked inside a library, found by the messages only that
 * allocator's code prints ({@code "<jemalloc>: "}), which stay in the file however it was built or stripped.
 * The JDK's own libraries are never read (none links an allocator); each other library once per inspect run.
 */
final class NativeAllocators {
    private static final Pattern BY_NAME = Pattern.compile("/lib(jemalloc|tcmalloc|mimalloc)[^/]*\\.so[^/]*$");
    /** Each allocator's own messages, as its code prints them. */
    private static final Map<String, String> MARKERS = Map.of(
            "jemalloc", "<jemalloc>: ",
            "mimalloc", "mimalloc: warning: ",
            "tcmalloc", "tcmalloc: large alloc");
    private static final int CHUNK = 4 << 20;
    /** A library's allocators by its path and size: a watch reads each library once. */
    private static final Map<String, Set<String>> SCANNED = new ConcurrentHashMap<>();

    /** Opens the file a mapping shows, as the target sees it. */
    @FunctionalInterface
    interface LibraryFiles {
        Optional<FileChannel> open(Mapping m);
    }

    private NativeAllocators() {}

    /** The allocators replacing malloc, by their libraries' names alone (what {@code --no-attach} can tell too). */
    static List<NativeAllocator> byName(List<Mapping> mappings) {
        Map<String, NativeAllocator> found = new LinkedHashMap<>();
        for (Mapping m : mappings) {
            var name = BY_NAME.matcher(m.path());
            if (name.find()) {
                found.putIfAbsent(m.path(), new NativeAllocator(name.group(1), m.path(), false));
            }
        }
        return List.copyOf(found.values());
    }

    /** By name, and inside the libraries of the target outside {@code javaHome}, read through {@code /proc/PID}. */
    static List<NativeAllocator> find(long pid, List<Mapping> mappings, String javaHome) {
        return find(mappings, javaHome, m -> open(pid, m));
    }

    static List<NativeAllocator> find(List<Mapping> mappings, String javaHome, LibraryFiles files) {
        List<NativeAllocator> found = new ArrayList<>(byName(mappings));
        Set<String> seen = new LinkedHashSet<>();
        String jdk = javaHome == null || javaHome.isEmpty() ? null : javaHome + "/";
        for (Mapping m : mappings) {
            String path = m.path();
            if (m.isAnonymous() || !MappingClassifier.SHARED_LIBRARY.matcher(path).find() || BY_NAME.matcher(path).find()
                    || (jdk != null && path.startsWith(jdk)) || !seen.add(path)) {
                continue;
            }
            for (String allocator : inside(m, files)) {
                found.add(new NativeAllocator(allocator, path, true));
            }
        }
        return List.copyOf(found);
    }

    private static Set<String> inside(Mapping m, LibraryFiles files) {
        Optional<FileChannel> opened = files.open(m);
        if (opened.isEmpty()) {
            return Set.of();
        }
        try (FileChannel file = opened.get()) {
            String key = m.path() + "\0" + file.size();
            Set<String> known = SCANNED.get(key);
            if (known == null) {
                known = scan(file);
                SCANNED.put(key, known);
            }
            return known;
        } catch (IOException e) {
            return Set.of(); // a library that cannot be read is not one whose allocator we can name
        }
    }

    /** The allocators whose messages are in {@code file}, read in chunks that overlap by the longest message. */
    static Set<String> scan(FileChannel file) throws IOException {
        Set<String> found = new LinkedHashSet<>();
        int overlap = MARKERS.values().stream().mapToInt(String::length).max().orElse(0) - 1;
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        long position = 0;
        while (found.size() < MARKERS.size()) {
            chunk.clear();
            int read = file.read(chunk, position);
            if (read <= 0) {
                break;
            }
            String text = new String(chunk.array(), 0, chunk.position(), StandardCharsets.ISO_8859_1);
            MARKERS.forEach((name, marker) -> {
                if (text.contains(marker)) {
                    found.add(name);
                }
            });
            if (chunk.position() <= overlap) {
                break;
            }
            position += chunk.position() - overlap;
        }
        return found;
    }

    /**
     * The mapping's file: through {@code map_files} (it works for a deleted library, as JNI loaders leave them),
     * else the path in the target's root, else the path as this process sees it.
     */
    private static Optional<FileChannel> open(long pid, Mapping m) {
        String path = m.path().replace(" (deleted)", "");
        for (Path candidate : List.of(
                TargetProcess.file(pid, "map_files", Long.toHexString(m.start()) + "-" + Long.toHexString(m.end())),
                TargetProcess.inRoot(pid, path), Path.of(path))) {
            try {
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(FileChannel.open(candidate, StandardOpenOption.READ));
                }
            } catch (IOException | SecurityException e) {
                // try the next way to the same file
            }
        }
        return Optional.empty();
    }
}
