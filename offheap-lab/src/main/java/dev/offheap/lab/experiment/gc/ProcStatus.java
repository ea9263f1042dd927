package dev.offheap.lab.experiment.gc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This process's memory as Linux reports it in /proc/self/status; -1 elsewhere. */
final class ProcStatus {
    private ProcStatus() {}

    /** Resident set size now, in KiB. */
    static long rssKib() {
        return field("VmRSS:");
    }

    /** Peak resident set size, in KiB. */
    static long peakRssKib() {
        return field("VmHWM:");
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).replace("kB", "").trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
