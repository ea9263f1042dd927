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

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory, a named pipe or a device is refused before it is opened, naming what it is: opening a named pipe
 * for reading blocked until some process wrote to it, for ever if none did. Each open runs on a thread of its
 * own with a bounded wait, so that a regression fails instead of hanging the build.
 */
class MappedArrayRefusesWhatIsNotARegularFileTest {
    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    void aNamedPipeIsRefusedAtOnceInEitherMode() throws Exception {
        Path fifo = dir.resolve("pipe.npy");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        assumeTrue(Waits.finish(mkfifo, BOUND, "mkfifo").exitCode() == 0, "mkfifo works here");
        for (MappedArray.Mode mode : MappedArray.Mode.values()) {
            assertThat(openWithin(fifo, mode)).as("%s", mode).isInstanceOf(ArrayFileException.class)
                    .hasMessage(fifo + ": not a regular file but a named pipe (FIFO): a mapped array is a regular"
                            + " file; nothing was opened");
        }
        assertThat(run(fifo, () -> MappedArray.create(fifo, ElementType.INT, 10))).as("create never overwrites")
                .isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void aDirectoryIsRefusedInEitherMode() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("directory.npy"));
        for (MappedArray.Mode mode : MappedArray.Mode.values()) {
            assertThat(openWithin(directory, mode)).as("%s", mode).isInstanceOf(ArrayFileException.class)
                    .hasMessage(directory + ": not a regular file but a directory: a mapped array is a regular file;"
                            + " nothing was opened");
        }
    }

    @Test
    void aDeviceIsRefusedBeforeItIsOpened() throws Exception {
        Path device = Path.of("/dev/null");
        assumeTrue(Files.exists(device), "/dev/null exists");
        assertThat(openWithin(device, MappedArray.Mode.READ_ONLY)).isInstanceOf(ArrayFileException.class)
                .hasMessage(device + ": not a regular file but a character device: a mapped array is a regular file;"
                        + " nothing was opened");
    }

    @Test
    void aSymbolicLinkToARegularFileOpens() throws Exception {
        Path file = dir.resolve("target.npy");
        MappedArray.create(file, ElementType.INT, 10).close();
        Path link = Files.createSymbolicLink(dir.resolve("link.npy"), file);
        try (MappedArray array = MappedArray.open(link, MappedArray.Mode.READ_WRITE)) {
            assertThat(array.length()).isEqualTo(10);
        }
    }

    /** What opening {@code path} threw, within {@link #BOUND}. */
    private static Throwable openWithin(Path path, MappedArray.Mode mode) throws Exception {
        return run(path, () -> MappedArray.open(path, mode));
    }

    /**
     * What {@code opening} threw, within {@link #BOUND}. An open of the pipe {@code path} still blocked then is
     * let go (a writer opens the pipe and closes it) before the test fails, so that no thread stays stuck.
     */
    private static Throwable run(Path path, Opening opening) throws Exception {
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            try (MappedArray opened = opening.open()) {
                return null;
            } catch (Throwable t) {
                return t;
            }
        }, runnable -> Thread.ofPlatform().daemon().name("opening " + path).start(runnable));
        try {
            Throwable thrown = outcome.get(BOUND.toSeconds(), TimeUnit.SECONDS);
            assertThat(thrown).as("the open of %s succeeded", path).isNotNull();
            return thrown;
        } catch (TimeoutException blocked) {
            if (Files.readAttributes(path, BasicFileAttributes.class).isOther()) { // the pipe
                FileChannel.open(path, StandardOpenOption.WRITE).close();
            }
            throw new AssertionError("opening " + path + " blocked for " + BOUND);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    @FunctionalInterface
    private interface Opening {
        MappedArray open() throws IOException;
    }
}
