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
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Caches that native libraries keep by design, read from what the library itself writes, so that memory held on
 * purpose is named as such rather than taken for a leak. RocksDB (its JNI library {@code librocksdbjni}) writes
 * its options to a {@code LOG} file in each database's directory, which the target keeps open: each block cache
 * there, with its capacity. A cache shared by several column families or databases shows once (by its address).
 */
final class NativeCaches {
    private static final Pattern BLOCK_CACHE = Pattern.compile("^\\s*block_cache: (0x\\p{XDigit}+)\\s*$");
    private static final Pattern NAME = Pattern.compile("^\\s*block_cache_name: (\\S+)\\s*$");
    private static final Pattern CAPACITY = Pattern.compile("^\\s*capacity : (\\d+)\\s*$");

    /**
     * One cache.
     *
     * @param component the library's product ({@code RocksDB})
     * @param name the cache's kind as the library names it ({@code LRUCache block cache})
     * @param capacityBytes the most it holds, as configured
     * @param source where the figure was read
     */
    record Cache(String component, String name, long capacityBytes, String source) {}

    private NativeCaches() {}

    /** The caches of the libraries the target maps that offheap knows; none when it maps none of them. */
    static List<Cache> find(long pid, List<Mapping> mappings) {
        if (mappings.stream().noneMatch(m -> m.path().contains("librocksdbjni"))) {
            return List.of();
        }
        Map<String, Cache> byAddress = new LinkedHashMap<>();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(TargetProcess.file(pid, "fd"))) {
            for (Path fd : fds) {
                try {
                    Path file = Files.readSymbolicLink(fd);
                    if (file.getFileName() != null && file.getFileName().toString().equals("LOG")) {
                        Path log = TargetProcess.inRoot(pid, file.toString());
                        rocksDb(Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1), file.toString())
                                .forEach(byAddress::putIfAbsent);
                    }
                } catch (IOException e) {
                    // a descriptor closed meanwhile, or a LOG we may not read: the next one
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.copyOf(byAddress.values());
    }

    /** The block caches a RocksDB {@code LOG} describes, by address; the last options printed win. */
    static Map<String, Cache> rocksDb(String log, String path) {
        Map<String, Cache> caches = new LinkedHashMap<>();
        String address = null;
        String name = "block cache";
        for (String line : log.split("\n")) {
            Matcher m = BLOCK_CACHE.matcher(line);
            if (m.matches()) {
                address = m.group(1);
                name = "block cache";
                continue;
            }
            m = NAME.matcher(line);
            if (m.matches() && address != null) {
                name = m.group(1) + " block cache";
                continue;
            }
            m = CAPACITY.matcher(line);
            if (m.matches() && address != null) {
                caches.put(address, new Cache("RocksDB", name, Long.parseLong(m.group(1)), path));
                address = null;
            }
        }
        return caches;
    }

    /** The caches' capacities together. */
    static long total(List<Cache> caches) {
        return caches.stream().mapToLong(Cache::capacityBytes).sum();
    }

    /** "RocksDB's LRUCache block cache of 256.0 MiB (LOG: /path/LOG)", each joined. */
    static String describe(List<Cache> caches) {
        List<String> each = new ArrayList<>();
        for (Cache c : caches) {
            each.add(c.component() + "'s " + c.name() + " of " + dev.offheap.account.Bytes.human(c.capacityBytes())
                    + " (its LOG: " + c.source() + ")");
        }
        return String.join("; ", each);
    }
}
