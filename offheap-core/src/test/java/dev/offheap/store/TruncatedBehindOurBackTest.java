package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process truncating a mapped file is the one fault no reservation prevents: the JDK turns the
 * SIGBUS into an {@link InternalError} at the access, and the JVM lives on. Run in a child JVM in case it
 * does not.
 */
class TruncatedBehindOurBackTest {
    @TempDir
    Path dir;

    @Test
    void accessToTruncatedPagesThrowsInsteadOfCrashing() throws Exception {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx64m",
                "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), TruncatedFileChild.class.getName(),
                dir.resolve("truncated.npy").toString()))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output.lines()).as(output).containsExactly(
                "THREW java.lang.InternalError on read",
                "THREW java.lang.InternalError on write",
                "CLOSED");
        assertThat(child.exitValue()).isZero();
    }
}
