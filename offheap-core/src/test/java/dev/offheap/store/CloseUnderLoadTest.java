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
 * Closing a pool or releasing an array while other threads read and write it (element access, fills,
 * copies, kernels, a kept contiguous segment) never crashes the JVM: the users get
 * {@link IllegalStateException}s, the memory goes away afterwards. Run in a child JVM, since a crash would
 * take the test JVM with it.
 */
class CloseUnderLoadTest {
    @TempDir
    Path dir;

    @Test
    void closingUnderConcurrentUseNeverCrashes() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), CloseUnderLoadChild.class.getName(), "50",
                dir.toString()))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("hs_err")).toList())
                    .as("no JVM crash").isEmpty();
        }
        assertThat(child.exitValue()).as(output).isZero();
        assertThat(output).contains("OK");
    }
}
