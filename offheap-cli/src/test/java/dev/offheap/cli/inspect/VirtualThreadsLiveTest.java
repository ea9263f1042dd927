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

package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * 20,000 parked virtual threads: with {@code --virtual-threads} inspect counts them and their stacks in the heap,
 * and says so in a finding once those stacks are a large share of the heap; without it the figures are null (not
 * read), never 0.
 */
@Tag("child-jvm")
class VirtualThreadsLiveTest {
    private static final int THREADS = 20_000;

    @Test
    @SuppressWarnings("unchecked")
    void parkedVirtualThreadsAndTheirStacksAreCountedOnlyWhenAsked() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/ParkedVirtualThreads.java").toAbsolutePath();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx256m", program.toString(),
                Integer.toString(THREADS)));
        try {

            Map<String, Object> counted = InspectRun.json(target.pid(), "--virtual-threads");
            Map<String, Object> jvm = (Map<String, Object>) ((Map<String, Object>) counted.get("details")).get("jvm");
            assertThat(((Number) jvm.get("virtualThreads")).longValue()).isEqualTo(THREADS);
            long stacks = ((Number) jvm.get("virtualThreadStacks")).longValue();
            assertThat(stacks).as("20 frames each: more than 512 bytes a thread").isGreaterThan(512L * THREADS);
            assertThat(((Number) jvm.get("threads")).longValue()).as("platform threads").isLessThan(100);
            assertThat((List<Map<String, Object>>) counted.get("findings"))
                    .extracting(f -> f.get("id")).doesNotContain("virtual-thread-stacks");

            Map<String, Object> notCounted = InspectRun.json(target.pid());
            Map<String, Object> plain = (Map<String, Object>) ((Map<String, Object>) notCounted.get("details")).get("jvm");
            assertThat(plain).containsEntry("virtualThreads", null).containsEntry("virtualThreadStacks", null);
            assertThat(InspectRun.run(target.pid()).out()).contains("virtual     not counted: their stacks live in the"
                    + " heap (--virtual-threads walks the heap for them)");
        } finally {
            AttachTargets.end(target);
        }
    }
}
