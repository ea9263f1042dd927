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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MappedArray#force()} never runs inside a view that another thread is releasing. Forcing a view is a
 * scoped access to its arena in the JDK; closing that arena meanwhile makes the JDK throw an error
 * asynchronously into the forcing thread, wherever it is at that moment: inside the JDK's blocking support for
 * virtual threads, one such error during the first blocking call of the JVM left
 * {@code jdk.internal.misc.CarrierThread$ForkJoinPools} uninitializable, and every later blocking call of every
 * virtual thread threw {@code NoClassDefFoundError} (seen once in {@code MappedArrayReachabilityTest}). The child
 * logs the VM's exceptions; none may be asynchronous.
 */
@Tag("child-jvm")
class ForceRacingViewReleaseTest {

    @TempDir
    Path dir;

    @Test
    void forceNeverGetsAnAsynchronousErrorFromAViewReleasedMeanwhile() throws Exception {
        Path log = dir.resolve("exceptions.log");
        ChildJvm child = ChildJvm.run(dir, "128m", List.of("-Xlog:exceptions=info:file=" + log),
                Duration.ofSeconds(60), ForceRacingViewReleaseChild.class, dir.toString(), "1500");
        assertThat(child.crashReports()).isEmpty();
        assertThat(child.exitCode()).as(child.head()).isZero();
        assertThat(child.output()).as(child.head()).startsWith("OK ").endsWith("still blocking fine\n");
        List<String> asynchronous = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("Async. exception installed")).toList();
        assertThat(asynchronous.size()).as("errors thrown into a thread by another thread's close, the first: %s",
                asynchronous.stream().findFirst().orElse("none")).isZero();
    }
}
