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
 * Closing a pool or releasing an array while other threads read and write it (element access, fills,
 * copies, kernels, a kept contiguous segment) never crashes the JVM: the users get
 * {@link IllegalStateException}s, the memory goes away afterwards. Run in a child JVM, since a crash would
 * take the test JVM with it.
 */
@Tag("child-jvm")
class CloseUnderLoadTest {
    @TempDir
    Path dir;

    @Test
    void closingUnderConcurrentUseNeverCrashes() throws Exception {
        ChildJvm child = ChildJvm.run(dir, "256m", Duration.ofSeconds(60), CloseUnderLoadChild.class, "50",
                dir.toString());
        assertThat(child.crashReports()).as("no JVM crash").isEmpty();
        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains("OK");
    }
}
