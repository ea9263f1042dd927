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

package dev.offheap.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** How many memory mappings stores may hold: half of Linux's {@code vm.max_map_count}, the rest is the JVM's. */
final class MapCount {
    private static final long LINUX_DEFAULT = 65_530;

    private MapCount() {}

    static long limitForStores() {
        return maxMapCount() / 2;
    }

    static long maxMapCount() {
        try {
            // Not Files.readString: on JDK 25 it trusts the size procfs reports and read "6" of "65530" here.
            return Long.parseLong(Files.readAllLines(Path.of("/proc/sys/vm/max_map_count")).getFirst().trim());
        } catch (IOException | RuntimeException e) { // not Linux, or no procfs
            return LINUX_DEFAULT;
        }
    }
}
