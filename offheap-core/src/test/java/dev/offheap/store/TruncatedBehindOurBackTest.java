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

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.suite.Waits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another process truncating a mapped file is the one fault no reservation prevents. The JDK turns the SIGBUS
 * into an {@link InternalError}; the array turns that into an {@link ArrayFileTruncatedException} naming the
 * file, its sizes and the element, and the JVM lives on. Run in a child JVM in case it does not.
 */
@Tag("child-jvm")
class TruncatedBehindOurBackTest {
    @TempDir
    Path dir;

    @Test
    void accessToTruncatedPagesThrowsAClearExceptionInsteadOfCrashing() throws Exception {
        Path file = dir.resolve("truncated.npy");
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx64m",
                "-XX:-CreateCoredumpOnCrash", "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), TruncatedFileChild.class.getName(), file.toString()))
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = Waits.finish(child, Duration.ofSeconds(60), "the child touching a truncated file").output();
        List<String> lines = output.lines().toList();
        String truncated = ArrayFileTruncatedException.class.getName() + " | " + file
                + " was truncated by someone else while mapped: it has 4096 bytes now, the mapped data needs "
                + (4096 + 8L * (1 << 20)) + "; element ";
        assertThat(lines).as(output).startsWith(
                "get THREW " + truncated + "1000 is gone",
                "set THREW " + truncated + "7 is gone",
                "copyTo THREW " + truncated + "2048 is gone",
                "copyFrom THREW " + truncated + "4096 is gone",
                "fill THREW " + truncated + "8192 is gone",
                "toArray THREW " + truncated + "300000 is gone",
                "copy THREW " + truncated + "500000 is gone",
                "view THREW java.io.UncheckedIOException | cannot map " + file + ": " + file + ": truncated by"
                        + " someone else: it has 4096 bytes now, a view of the current length needs "
                        + (4096 + 8L * (1 << 20)),
                "grow THREW " + ArrayFileException.class.getName() + " | " + file + ": cannot grow: truncated by"
                        + " someone else: it has 4096 bytes now, the data needs " + (4096 + 8L * (1 << 20)),
                "sum THREW " + truncated + "0 is gone", // whole-array operations name no element of their own
                "scale THREW " + truncated + "0 is gone",
                "sort THREW " + truncated + "0 is gone");
        // In compiled code the JDK reports the fault asynchronously, at its next safepoint poll, which may be
        // in the caller's loop: then the caller sees the JDK's own InternalError (documented).
        assertThat(lines.get(12)).matches("loop THREW (" + ArrayFileTruncatedException.class.getName()
                + "|java.lang.InternalError) \\| .*");
        assertThat(lines.subList(13, lines.size())).as(output).containsExactly("CLOSED");
        assertThat(child.exitValue()).isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("hs_err"))).isEmpty();
        }
    }
}
