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

package dev.offheap.os;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A tiny tmpfs mounted on a test's directory, to run out of disk space cheaply. Needs Linux and root (or
 * CAP_SYS_ADMIN): elsewhere the test that asks for one is skipped.
 */
public final class SmallTmpfs implements AutoCloseable {
    private final Path directory;

    private SmallTmpfs(Path directory) {
        this.directory = directory;
    }

    /** Mounts a tmpfs of {@code bytes} on {@code directory}, or skips the calling test if that is impossible. */
    public static SmallTmpfs mountOrSkip(Path directory, long bytes) throws IOException, InterruptedException {
        assumeTrue(Libc.isLinux(), "a small file system to fill needs Linux");
        Files.createDirectories(directory);
        String output = run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", directory.toString());
        assumeTrue(output == null, () -> "cannot mount a small tmpfs (needs root): " + output);
        return new SmallTmpfs(directory);
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void close() throws IOException {
        try {
            String output = run("umount", directory.toString());
            if (output != null && run("umount", "-l", directory.toString()) != null) {
                throw new IOException("cannot unmount the test tmpfs at " + directory + ": " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while unmounting the test tmpfs at " + directory, e);
        }
    }

    /** Runs a command; null if it succeeded, else what it printed. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        Waits.Finished finished = Waits.finish(process, Duration.ofSeconds(30), String.join(" ", command));
        return finished.exitCode() == 0 ? null : finished.output().strip() + " (exit " + finished.exitCode() + ")";
    }
}
