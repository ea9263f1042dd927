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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a mapped array while platform and virtual threads read and write it, many times over, never crashes
 * the JVM: the views end first (every thread then gets an {@link IllegalStateException}), the file is unmapped
 * after. Run in a child JVM, which a crash would kill.
 */
@Tag("child-jvm")
class MappedCloseUnderLoadTest {
    private static final int ROUNDS = 150;

    @TempDir
    Path dir;

    @Test
    void closingUnderConcurrentReadersAndWritersEndsTheirViewsAndNeverCrashes() throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m", Duration.ofSeconds(60), MappedCloseUnderLoadChild.class,
                dir.toString(), Integer.toString(ROUNDS));
        assertThat(child.output().lines()).as(child.output()).containsExactly("ROUNDS " + ROUNDS);
        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.crashReports()).isEmpty();
    }
}
