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

import dev.offheap.buffer.BufferPool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each io strategy reads the file, changes it as the seed does and writes it; the verdicts get medians in ms. */
class IoStrategiesTest {
    private static final int SIZE = 64 << 10;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"heap", "direct", "pool"})
    void aBufferStrategyWritesTheFileWithItsFirstByteSetToItsLast(String strategy) throws Exception {
        byte[] source = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            source[i] = (byte) (i % 251);
        }
        byte[] expected = source.clone();
        expected[0] = (byte) ((SIZE - 1) % 251);

        assertThat(runOnce(strategy, source)).isEqualTo(expected);
    }

    @Test
    void transferToCopiesTheFileUnchanged() throws Exception {
        byte[] source = new byte[SIZE];
        source[SIZE - 1] = 7;

        assertThat(runOnce("transferTo", source)).isEqualTo(source);
    }

    @Test
    void rangesAreInMilliseconds() {
        Map<String, Samples> times = new LinkedHashMap<>();
        times.put("heap", new Samples(new long[] {4_000_000, 3_500_000, 5_000_000}));
        times.put("direct", new Samples(new long[] {2_400_000, 2_500_000}));
        times.put("pool", new Samples(new long[] {1_900_000}));

        assertThat(IoExperiment.rangesMs(times)).containsExactly(Map.entry("heap", new Range(4.0, 3.5, 5.0, 3)),
                Map.entry("direct", Range.of(2_400_000, 2_500_000).times(1e-6)), Map.entry("pool", new Range(1.9, 1.9, 1.9, 1)));
    }

    private byte[] runOnce(String strategy, byte[] content) throws Exception {
        Path source = Files.write(dir.resolve("source"), content);
        Path target = Files.write(dir.resolve("target"), new byte[SIZE]);
        try (BufferPool pool = BufferPool.builder().name("io-strategies-test").jmx(false).build()) {
            IoExperiment.strategy(strategy, new FileReverse(source, target), SIZE, pool).run();
        }
        return Files.readAllBytes(target);
    }
}
