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
 * A third-party native cache of known size: RocksDB's JNI library (from Maven Central) with a 64 MiB block cache,
 * filled. inspect names the cache and its capacity from RocksDB's own LOG, as memory held by design inside malloc;
 * a JVM without RocksDB has no such cache (InspectJsonSchemaTest's target: {@code caches} is empty).
 */
@Tag("child-jvm")
class RocksDbCacheTest {

    @Test
    @SuppressWarnings("unchecked")
    void rocksDbsBlockCacheIsNamedWithTheCapacityItsLogGives() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        assumeThat(System.getProperty("os.arch")).isEqualTo("amd64");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/RocksDbCache.java").toAbsolutePath();
        Process target = AttachTargets.startReady(new ProcessBuilder(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED",
                "-cp", AttachTargets.thirdPartyJar("rocksdbjni-").toString(), program.toString(), "64"));
        try {
            Map<String, Object> json = InspectRun.json(target.pid());

            assertThat((List<Map<String, Object>>) json.get("caches")).singleElement().satisfies(c -> {
                assertThat(c.get("component")).isEqualTo("RocksDB");
                assertThat(c.get("name")).isEqualTo("LRUCache block cache");
                assertThat(((Number) c.get("capacity")).longValue()).isEqualTo(64L << 20);
                assertThat((String) c.get("source")).endsWith("/LOG");
            });
            assertThat(MiniJson.number(json, "malloc")).as("the filled cache is in malloc").isGreaterThan(64L << 20);
            assertThat((List<Map<String, Object>>) json.get("findings")).anySatisfy(f -> {
                assertThat(f.get("id")).isEqualTo("native-cache");
                assertThat((String) f.get("text")).startsWith("RocksDB's LRUCache block cache of 64.0 MiB")
                        .contains("held by design, inside malloc's");
            });
        } finally {
            AttachTargets.end(target);
        }
    }
}
