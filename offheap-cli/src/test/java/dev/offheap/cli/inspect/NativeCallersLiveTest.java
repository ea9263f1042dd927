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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --native-callers} on live targets: an Inflater leak is named down to its Java call site, with the
 * remedy; the same calls that end their Inflaters hold nothing and find nothing; fragmented arenas with nothing
 * held are retention, not a leak; the profiler's messages never reach the target's output and its files do not
 * stay in /tmp; a JVM that refuses agents is a clean refusal.
 */
@Tag("child-jvm")
class NativeCallersLiveTest {

    @Test
    @SuppressWarnings("unchecked")
    void aLiveInflaterLeakIsNamedDownToItsJavaCallSite() throws Exception {
        assumeSupported();
        Process target = start("leak");
        try {
            Map<String, Object> json = InspectRun.json(target.pid(), "--native-callers", "4");

            Map<String, Object> callers = (Map<String, Object>) json.get("nativeCallers");
            List<Map<String, Object>> sites = (List<Map<String, Object>>) callers.get("sites");
            assertThat(sites).anySatisfy(site -> {
                assertThat(site.get("javaFrame")).isEqualTo("java.util.zip.Inflater.init");
                assertThat((String) site.get("caller")).startsWith("InflaterLeakLive.");
                assertThat(site.get("library")).isEqualTo("libzip.so");
                assertThat(((Number) site.get("held")).longValue()).as("4 s of about 1.4 MiB/s").isGreaterThan(1L << 20);
            });
            assertThat((List<Map<String, Object>>) json.get("findings")).anySatisfy(f -> {
                assertThat(f.get("id")).isEqualTo("native-memory-held");
                assertThat((String) f.get("text")).startsWith("InflaterLeakLive.").contains("java.util.zip.Inflater.init")
                        .contains("until end() (or close(), JDK 25) is called");
            });
            assertThat((List<Map<String, Object>>) json.get("findings")).extracting(f -> f.get("id"))
                    .as("memory held by a call site is not retention").doesNotContain("malloc-retention");
            assertThat(target.getInputStream().available()).as("the profiler printed nothing to the target's output")
                    .isZero();
            assertThat(leftovers()).as("the recording's files are deleted").isEmpty();
        } finally {
            AttachTargets.end(target);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSameCallsThatEndTheirInflatersHoldNothingAndFindNothing() throws Exception {
        assumeSupported();
        Process target = start("healthy");
        try {
            Map<String, Object> json = InspectRun.json(target.pid(), "--native-callers", "4");

            List<Map<String, Object>> sites = (List<Map<String, Object>>) ((Map<String, Object>) json.get("nativeCallers"))
                    .get("sites");
            // zlib's memory, which end() frees (the JVM's own few bytes for the JNI call are another site, libjvm.so)
            assertThat(sites).filteredOn(site -> "java.util.zip.Inflater.init".equals(site.get("javaFrame"))
                    && "libzip.so".equals(site.get("library"))).singleElement().satisfies(site -> {
                        assertThat(((Number) site.get("allocated")).longValue()).isGreaterThan(1L << 20);
                        assertThat(((Number) site.get("held")).longValue())
                                .isLessThan(((Number) site.get("allocated")).longValue() / 10);
                    });
            assertThat((List<Map<String, Object>>) json.get("findings")).extracting(f -> f.get("id"))
                    .doesNotContain("native-memory-held");
        } finally {
            AttachTargets.end(target);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void fragmentedArenasWithNothingHeldAreRetentionNotALeak() throws Exception {
        assumeSupported();
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx256m",
                Path.of("src/test/resources/inspect/FragmentedArenas.java").toAbsolutePath().toString()));
        try {
            Map<String, Object> json = InspectRun.json(target.pid(), "--native-callers", "2");

            assertThat((List<Map<String, Object>>) json.get("findings")).extracting(f -> f.get("id"))
                    .contains("malloc-retention", "malloc-fragmentation").doesNotContain("native-memory-held");
        } finally {
            AttachTargets.end(target);
        }
    }

    @Test
    void aJvmThatRefusesAgentsIsRefusedInOneLine() throws Exception {
        assumeSupported();
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx64m", "-XX:-EnableDynamicAgentLoading",
                program().toString(), "healthy"));
        try {
            InspectRun.Result result = InspectRun.run(target.pid(), "--native-callers", "1");

            assertThat(result.exit()).isEqualTo(InspectException.ATTACH_FAILED);
            assertThat(result.err()).startsWith("offheap inspect: --native-callers cannot record in " + target.pid() + ": ")
                    .contains("EnableDynamicAgentLoading").hasLineCount(1);
            assertThat(leftovers()).isEmpty();
        } finally {
            AttachTargets.end(target);
        }
    }

    /**
     * Root inspecting another user's JVM (HotSpot 11+ accepts root on its attach socket): the recording's directory
     * in the target's /tmp is the target user's, or the profiler in the target could not write its log and
     * recording there.
     */
    @Test
    @SuppressWarnings("unchecked")
    void rootRecordsInAnotherUsersJvm() throws Exception {
        assumeSupported();
        AttachTargets.assumeRootAndNobody();
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new java.util.ArrayList<>(AttachTargets.AS_NOBODY);
        command.addAll(List.of(java, "-Xmx64m", program().toString(), "leak"));
        Process target = AttachTargets.startReady(new ProcessBuilder(command).directory(Path.of("/tmp").toFile()));
        try {
            assertThat(Files.getAttribute(Path.of("/proc", Long.toString(target.pid())), "unix:uid")).isEqualTo(65534);
            Map<String, Object> json = InspectRun.json(target.pid(), "--native-callers", "2");

            List<Map<String, Object>> sites = (List<Map<String, Object>>) ((Map<String, Object>) json.get("nativeCallers"))
                    .get("sites");
            assertThat(sites).anySatisfy(site -> assertThat(site.get("javaFrame")).isEqualTo("java.util.zip.Inflater.init"));
            assertThat(leftovers()).as("the recording's files are deleted").isEmpty();
        } finally {
            AttachTargets.end(target);
        }
    }

    private static void assumeSupported() {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        assumeThat(System.getProperty("os.arch")).isIn("amd64", "aarch64");
    }

    private static Process start(String mode) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        return AttachTargets.startReady(new ProcessBuilder(java, "-Xmx64m", program().toString(), mode));
    }

    private static Path program() {
        return Path.of("src/test/resources/inspect/InflaterLeakLive.java").toAbsolutePath();
    }

    /** This JVM's recordings' directories (inspect runs here): another inspect's, running beside it, are not ours. */
    private static List<Path> leftovers() throws IOException {
        String ours = NativeCallers.DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-";
        try (Stream<Path> files = Files.list(Path.of("/tmp"))) {
            return files.filter(f -> f.getFileName().toString().startsWith(ours)).toList();
        }
    }
}
