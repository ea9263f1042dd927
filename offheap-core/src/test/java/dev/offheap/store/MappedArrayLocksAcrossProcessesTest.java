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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.ChildJvm;
import dev.offheap.os.LockedFile;
import dev.offheap.suite.Waits;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Across processes a file is open {@code READ_WRITE} by one process at a time, or {@code READ_ONLY} and
 * {@code SHARED} by any number, through a lock on the open file ({@code MappedOpenerChild} is the other process).
 * The lock is not lost
 * when other descriptors of the file close in the process that holds it, as a POSIX record lock
 * ({@code FileLock}) would be at the first {@code fallocate} of a {@code grow}.
 */
@Tag("child-jvm")
class MappedArrayLocksAcrossProcessesTest {
    private static final Duration CHILD = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private Path file;

    @BeforeEach
    void createTheFile() throws IOException {
        assumeTrue(LockedFile.locksEachOpenFile(), "locks other processes see: Linux with /proc");
        file = dir.resolve("shared.npy");
        MappedArray.create(file, ElementType.LONG, 1000).close();
    }

    @Test
    void aWriterInAnotherProcessKeepsThisOneOutUntilItCloses() throws Exception {
        try (Holder writer = new Holder(file, MappedArray.Mode.READ_WRITE)) {
            for (MappedArray.Mode mode : MappedArray.Mode.values()) {
                assertThatThrownBy(() -> MappedArray.open(file, mode)).isInstanceOf(FileInUseException.class)
                        .hasMessage(file + ": cannot open it " + mode + ": another process (or a FileLock of this"
                                + " JVM's own) has it: it has the file open READ_WRITE (an exclusive lock); open it"
                                + " once that process has closed it")
                        .satisfies(e -> assertThat(((FileInUseException) e).byAnotherProcess()).isTrue());
            }
        }
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    @Test
    void readersInAnotherProcessShareTheFileButKeepAWriterOut() throws Exception {
        try (Holder reader = new Holder(file, MappedArray.Mode.READ_ONLY)) {
            try (MappedArray alsoReading = MappedArray.open(file, MappedArray.Mode.READ_ONLY)) {
                assertThat(alsoReading.length()).isEqualTo(1000);
            }
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessageContaining("another process (or a FileLock of this JVM's own) has it: it has the file"
                            + " open READ_ONLY (a shared lock)");
        }
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    @Test
    void thisWritersLockOutlivesOtherDescriptorsOfTheFileClosingInThisProcess() throws Exception {
        try (MappedArray writer = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            writer.grow(100_000); // fallocate opens and closes a descriptor of its own
            Files.readAllBytes(file);
            for (MappedArray.Mode mode : MappedArray.Mode.values()) {
                assertThat(tryInAChild(mode)).as("%s", mode).startsWith("refused FileInUseException | " + file
                        + ": cannot open it " + mode + ": another process (or a FileLock of this JVM's own) has it:"
                        + " it has the file open READ_WRITE (an exclusive lock)");
            }
        }
        assertThat(tryInAChild(MappedArray.Mode.READ_WRITE)).isEqualTo("open\nclosed");
    }

    @Test
    void readersHereKeepAWriterInAnotherProcessOut() throws Exception {
        try (MappedArray reader = MappedArray.open(file, MappedArray.Mode.READ_ONLY)) {
            assertThat(tryInAChild(MappedArray.Mode.READ_WRITE)).contains("open READ_ONLY (a shared lock)");
            assertThat(tryInAChild(MappedArray.Mode.READ_ONLY)).isEqualTo("open\nclosed");
        }
    }

    @Test
    void aSharedOpenerInAnotherProcessSharesTheFileWithSharedOnesAndReadersButKeepsAWriterOut() throws Exception {
        try (Holder shared = new Holder(file, MappedArray.Mode.SHARED)) {
            try (MappedArray alsoShared = MappedArray.open(file, MappedArray.Mode.SHARED);
                 MappedArray reading = MappedArray.open(file, MappedArray.Mode.READ_ONLY)) {
                assertThat(alsoShared.length()).isEqualTo(reading.length()).isEqualTo(1000);
            }
            assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_WRITE))
                    .isInstanceOf(FileInUseException.class)
                    .hasMessage(file + ": cannot open it READ_WRITE: another process (or a FileLock of this JVM's own)"
                            + " has it: it has the file open READ_ONLY (a shared lock) or SHARED (the same lock), and"
                            + " READ_WRITE is for one opener alone; open it once that process has closed it");
        }
        try (MappedArray sharedHere = MappedArray.open(file, MappedArray.Mode.SHARED)) {
            assertThat(tryInAChild(MappedArray.Mode.SHARED)).isEqualTo("open\nclosed");
            assertThat(tryInAChild(MappedArray.Mode.READ_WRITE)).contains("or SHARED (the same lock)");
        }
        MappedArray.open(file, MappedArray.Mode.READ_WRITE).close();
    }

    /** What a child that opens the file in {@code mode} and closes it at once printed. */
    private String tryInAChild(MappedArray.Mode mode) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "64m", CHILD, MappedOpenerChild.class, file.toString(), mode.name(), "try");
        assertThat(child.exitCode()).as(child.head()).isZero();
        return child.output().strip();
    }

    /** A child process that holds the file open in a mode until closed. */
    private static final class Holder implements AutoCloseable {
        private final Process process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        Holder(Path file, MappedArray.Mode mode) throws IOException, InterruptedException {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx64m",
                    "-XX:-CreateCoredumpOnCrash", "-cp", System.getProperty("java.class.path"),
                    MappedOpenerChild.class.getName(), file.toString(), mode.name(), "hold"))
                    .redirectErrorStream(true).start();
            Thread.ofPlatform().daemon().start(this::readLines);
            assertThat(Waits.take(lines, "the child's open")).isEqualTo("open");
        }

        private void readLines() {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ended) {
                // the child is gone
            }
        }

        /**
         * Lets the child close the file and end, and waits for it. Its output has one reader, {@link #readLines}:
         * a second one (Waits.finish) raced it for the bytes and read a stream the first had closed at its end.
         */
        @Override
        public void close() throws Exception {
            process.getOutputStream().close();
            assertThat(Waits.take(lines, "the child's close")).isEqualTo("closed");
            if (!process.waitFor(CHILD.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("the holding child did not end within " + CHILD + "; it printed " + lines);
            }
            assertThat(process.exitValue()).as("the holding child's exit; it printed %s", lines).isZero();
        }
    }
}
