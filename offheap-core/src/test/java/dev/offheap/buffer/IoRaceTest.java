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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Release, trim and close racing file, socket and pipe reads and writes on leases of every mode
 * ({@link IoRaceChild}), in a child JVM since a crash would take the test JVM with it: no crash, no byte of
 * an operation outside its own lease, every budget back to 0 once the operations ended and the close or
 * release was repeated. {@code -Dio.race.rounds=N} sets the rounds per mode (default 25 here;
 * {@code tools/io-race-stress.sh} runs 250).
 */
@Tag("child-jvm")
class IoRaceTest {
    private static final int ROUNDS = Integer.getInteger("io.race.rounds", 25);

    @ParameterizedTest(name = "{0} mode, {1} memory")
    @CsvSource({
        "default, system", "checked, system", "sampled, system", "leak, system", "uncached, system",
        "default, portable", "checked, portable",
    })
    void releaseTrimAndCloseRacingIoNeverCrashLeakOrLendMemoryTwice(String mode, String memory, @TempDir Path dir)
            throws Exception {
        long seed = Long.getLong("io.race.seed", System.nanoTime());
        ChildJvm child = ChildJvm.run(dir, "256m", Duration.ofMinutes(20), IoRaceChild.class, mode, memory,
                String.valueOf(ROUNDS), String.valueOf(seed));
        assertThat(child.crashReports()).as("hs_err files").isEmpty();
        assertThat(child.exitCode()).as("seed %d:%n%s", seed, child.head()).isZero();
        assertThat(child.output()).contains("OK rounds=" + ROUNDS);
        System.out.println("IoRaceTest " + mode + " " + memory + " seed " + seed + ": "
                + child.output().lines().filter(l -> l.startsWith("OK ")).findFirst().orElse(""));
    }
}
