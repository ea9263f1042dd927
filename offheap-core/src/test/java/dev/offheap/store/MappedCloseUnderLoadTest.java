package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a mapped array while platform and virtual threads read and write it, many times over, never crashes
 * the JVM: the views end first (every thread then gets an {@link IllegalStateException}), the file is unmapped
 * after. Run in a child JVM, which a crash would kill.
 */
class MappedCloseUnderLoadTest {
    private static final int ROUNDS = 150;

    @TempDir
    Path dir;

    @Test
    void closingUnderConcurrentReadersAndWritersEndsTheirViewsAndNeverCrashes() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx128m",
                "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), MappedCloseUnderLoadChild.class.getName(), dir.toString(),
                Integer.toString(ROUNDS)))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output.lines()).as(output).containsExactly("ROUNDS " + ROUNDS);
        assertThat(child.exitValue()).as(output).isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("hs_err"))).isEmpty();
        }
    }
}
