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
