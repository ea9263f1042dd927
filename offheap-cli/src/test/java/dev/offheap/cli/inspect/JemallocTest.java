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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Inflater leak with jemalloc preloaded (seed 002's remedy): what jemalloc holds is a part of its own, not
 * unexplained, glibc's arenas keep next to nothing, and the finding says what jemalloc holds.
 */
@Tag("child-jvm")
class JemallocTest {
    /** Debian's libjemalloc2, which ./offheap test installs when missing. */
    static final Path JEMALLOC = Path.of("/usr/lib/x86_64-linux-gnu/libjemalloc.so.2");

    @Test
    @SuppressWarnings("unchecked")
    void whatJemallocHoldsIsAPartAndTheFindingSaysSo() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        assumeThat(Files.exists(JEMALLOC)).as(JEMALLOC + " is missing (Debian: apt-get install libjemalloc2)").isTrue();
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/InflaterLeak.java").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx256m", "-XX:NativeMemoryTracking=summary", program.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().put("LD_PRELOAD", JEMALLOC.toString());
        Process target = AttachTargets.startReady(builder);
        try {
            Map<String, Object> json = InspectRun.json(target.pid());
            double rss = MiniJson.number(json, "rss");
            double jemalloc = MiniJson.part(json, "otherAllocator");

            assertThat(jemalloc).as("jemalloc's part").isGreaterThan(0.25 * rss);
            assertThat(MiniJson.number(json, "malloc")).as("glibc's arenas").isLessThan(0.05 * rss);
            assertThat(MiniJson.number(json, "unexplained") / rss).as("unexplained share").isLessThan(0.10);
            assertThat((List<Object>) json.get("allocators")).containsExactly(
                    Map.of("name", "jemalloc", "library", JEMALLOC.toString(), "linkedIn", false));
            assertThat((List<?>) json.get("findings")).anySatisfy(f -> {
                assertThat(((Map<?, ?>) f).get("id")).isEqualTo("other-allocator");
                assertThat((String) ((Map<?, ?>) f).get("text")).startsWith("jemalloc holds ")
                        .contains("jemalloc (" + JEMALLOC + ") takes the place of glibc's malloc");
            });
        } finally {
            AttachTargets.end(target);
        }
    }
}
