package dev.offheap.lab.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Describes the machine and the JDK the lab runs on, in one line each. */
public final class Machine {
    private Machine() {}

    public static String describe() {
        return describe(Path.of("/proc/cpuinfo"), Path.of("/proc/meminfo"));
    }

    /** As {@link #describe()}, from these files in the format of /proc/cpuinfo and /proc/meminfo. */
    static String describe(Path cpuinfo, Path meminfo) {
        String cpu = procLine(cpuinfo, "model name");
        String mem = procLine(meminfo, "MemTotal");
        String memory = "";
        if (!mem.isEmpty()) {
            long kib = Long.parseLong(mem.replaceAll("[^0-9]", ""));
            memory = String.format(Locale.ROOT, ", %.0f GiB", kib / 1024.0 / 1024.0);
        }
        return (cpu.isEmpty() ? System.getProperty("os.arch") : cpu) + ", "
                + Runtime.getRuntime().availableProcessors() + " CPUs" + memory + ", "
                + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    public static String jdk() {
        return System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version");
    }

    /** The value of the first "key : value" line of a /proc file starting with key, or "". */
    private static String procLine(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            return lines.stream().filter(l -> l.startsWith(key)).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
