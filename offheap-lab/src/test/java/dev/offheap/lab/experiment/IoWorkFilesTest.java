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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The io experiment's work files: pseudo-random data of exactly the size asked, where there is disk for them. */
class IoWorkFilesTest {
    @TempDir
    Path dir;

    @Test
    void randomFileHasTheSizeAskedAndTheSameBytesEveryTime() throws Exception {
        Path file = dir.resolve("random.bin");
        int size = (1 << 20) + (1 << 19);

        IoExperiment.writeRandom(file, size);

        SplittableRandom random = new SplittableRandom(42);
        byte[] first = new byte[1 << 20];
        byte[] second = new byte[1 << 20];
        random.nextBytes(first);
        random.nextBytes(second);
        byte[] written = Files.readAllBytes(file);
        assertThat(written).hasSize(size);
        assertThat(Arrays.copyOfRange(written, 0, 1 << 20)).isEqualTo(first);
        assertThat(Arrays.copyOfRange(written, 1 << 20, size)).isEqualTo(Arrays.copyOf(second, 1 << 19));
    }

    @Test
    void freeSpaceIsTheFileStoresUsableSpace() throws Exception {
        assertThat(IoExperiment.usableSpace(dir)).isPositive()
                .isLessThanOrEqualTo(Files.getFileStore(dir).getTotalSpace());
    }
}
