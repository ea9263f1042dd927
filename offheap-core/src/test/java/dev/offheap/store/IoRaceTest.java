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

import dev.offheap.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Pool and file close, array release and trim racing file, socket and pipe reads and writes on arrays of every
 * layout and on mapped views ({@link IoRaceChild}), in a child JVM: no crash, no byte of an operation outside its
 * own array, every budget back to 0 once the operations ended and the close or release was repeated.
 * {@code -Dio.race.rounds=N} sets the rounds per target (default 25; {@code tools/io-race-stress.sh} runs 250).
 */
@Tag("child-jvm")
class IoRaceTest {
    private static final int ROUNDS = Integer.getInteger("io.race.rounds", 25);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"CONTIGUOUS", "CONTIGUOUS_WITH_SPILL", "PORTABLE", "PORTABLE_WITH_SPILL", "MAPPED"})
    void closeReleaseAndTrimRacingIoNeverCrashLeakOrReachAnotherArray(String target, @TempDir Path dir)
            throws Exception {
        long seed = Long.getLong("io.race.seed", System.nanoTime());
        ChildJvm child = ChildJvm.run(dir, "256m", Duration.ofMinutes(20), IoRaceChild.class, target,
                String.valueOf(ROUNDS), String.valueOf(seed));
        assertThat(child.crashReports()).as("hs_err files").isEmpty();
        assertThat(child.exitCode()).as("seed %d:%n%s", seed, child.head()).isZero();
        assertThat(child.output()).contains("OK rounds=" + ROUNDS);
        System.out.println("IoRaceTest " + target + " seed " + seed + ": "
                + child.output().lines().filter(l -> l.startsWith("OK ")).findFirst().orElse(""));
    }
}
