package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Closing never crashes, in any mode: a pool closed (or leases released) while other threads still use the
 * views of its leases ends those views first, and gives the memory back afterwards. Each case runs many
 * rounds in a child JVM, since a crash would take the test JVM with it.
 */
class CloseUnderUseTest {

    @ParameterizedTest(name = "{0} mode, {1} memory, {2}")
    @CsvSource({
        "default, system, pool-close", "checked, system, pool-close", "sampled, system, pool-close",
        "default, portable, pool-close", "checked, portable, pool-close",
        "checked, system, release", "sampled, system, release",
    })
    void closingWhileOtherThreadsUseTheViewsNeverCrashes(String mode, String memory, String what,
            @TempDir Path dir) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-XX:-CreateCoredumpOnCrash",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), CloseUnderUseChild.class.getName(),
                mode, memory, what, "40"));
        Path log = dir.resolve("child.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("child did not finish in 120 s: " + head(log));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hs_err")))
                    .as("hs_err files").isEmpty();
        }
        assertThat(process.exitValue()).as(head(log)).isZero();
        assertThat(Files.readString(log)).contains("OK ");
    }

    private static String head(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(0, Math.min(30, lines.size())));
    }
}
