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
 * Closing never crashes, in any mode: a pool closed (or leases released) while other threads still use the
 * views of its leases ends those views first, and gives the memory back afterwards. Each case runs many
 * rounds in a child JVM, since a crash would take the test JVM with it.
 */
@Tag("child-jvm")
class CloseUnderUseTest {

    @ParameterizedTest(name = "{0} mode, {1} memory, {2}")
    @CsvSource({
        "default, system, pool-close", "checked, system, pool-close", "sampled, system, pool-close",
        "default, portable, pool-close", "checked, portable, pool-close",
        "checked, system, release", "sampled, system, release",
    })
    void closingWhileOtherThreadsUseTheViewsNeverCrashes(String mode, String memory, String what,
            @TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m", Duration.ofSeconds(120), CloseUnderUseChild.class, mode, memory,
                what, "40");
        assertThat(child.crashReports()).as("hs_err files").isEmpty();
        assertThat(child.exitCode()).as(child.head()).isZero();
        assertThat(child.output()).contains("OK ");
    }
}
