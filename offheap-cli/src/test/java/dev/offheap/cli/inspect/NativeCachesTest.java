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

import java.util.List;
import org.junit.jupiter.api.Test;

/** The block caches a RocksDB LOG describes, once each however many column families share them. */
class NativeCachesTest {

    @Test
    void eachCacheOnceByItsAddressWithItsLastCapacity() {
        String log = """
                2026/11/28-10:45:31.123 7f42 Options.table_factory: BlockBasedTable
                  flush_block_policy_factory: FlushBlockBySizePolicyFactory (0x7f4294515a80)
                  no_block_cache: 0
                  block_cache: 0x7f42945ba0f0
                  block_cache_name: LRUCache
                  block_cache_options:
                    capacity : 268435456
                    num_shard_bits : 6
                    strict_capacity_limit : 0
                  persistent_cache: (nil)
                2026/11/28-10:45:31.124 7f42 [column family 'cf2'] Options.table_factory: BlockBasedTable
                  block_cache: 0x7f42945ba0f0
                  block_cache_name: LRUCache
                  block_cache_options:
                    capacity : 268435456
                  block_cache: 0x7f4294600000
                  block_cache_name: HyperClockCache
                  block_cache_options:
                    capacity : 8388608
                2026/11/28-10:55:31.124 7f42 Block cache LRUCache@0x7f42945ba0f0#22530 capacity: 256.00 MB usage: 0.09 KB
                """;

        var caches = NativeCaches.rocksDb(log, "/data/db/LOG");

        assertThat(caches).containsOnlyKeys("0x7f42945ba0f0", "0x7f4294600000");
        assertThat(caches.get("0x7f42945ba0f0"))
                .isEqualTo(new NativeCaches.Cache("RocksDB", "LRUCache block cache", 268_435_456, "/data/db/LOG"));
        assertThat(caches.get("0x7f4294600000").capacityBytes()).isEqualTo(8_388_608);
        assertThat(NativeCaches.total(List.copyOf(caches.values()))).isEqualTo(268_435_456 + 8_388_608);
        assertThat(NativeCaches.describe(List.of(caches.get("0x7f42945ba0f0"))))
                .isEqualTo("RocksDB's LRUCache block cache of 256.0 MiB (its LOG: /data/db/LOG)");
    }

    @Test
    void theLogsATargetHoldsOpenAreFoundThroughItsDescriptors(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // this JVM as the target: it holds a RocksDB LOG open and "maps" RocksDB's library
        java.nio.file.Path log = dir.resolve("LOG");
        java.nio.file.Files.writeString(log, "  block_cache: 0x7f01\n  block_cache_name: LRUCache\n"
                + "  block_cache_options:\n    capacity : 1048576\n");
        java.nio.file.Path other = dir.resolve("OTHER");
        java.nio.file.Files.writeString(other, "  block_cache: 0x7f02\n    capacity : 2048\n");
        List<Mapping> rocks = List.of(new Mapping(0x1000, 0x2000, "r-xp", "/tmp/librocksdbjni123.so", 4096, 0, 0));
        try (var open = java.nio.channels.FileChannel.open(log); var notALog = java.nio.channels.FileChannel.open(other)) {
            assertThat(NativeCaches.find(ProcessHandle.current().pid(), rocks)).containsExactly(
                    new NativeCaches.Cache("RocksDB", "LRUCache block cache", 1_048_576, log.toString()));
        }
        assertThat(NativeCaches.find(ProcessHandle.current().pid(), rocks)).as("once closed").isEmpty();
        assertThat(NativeCaches.find(Long.MAX_VALUE, rocks)).as("no such process").isEmpty();
    }

    @Test
    void aLogWithoutABlockCacheOrAProcessWithoutRocksDbHasNone() {
        assertThat(NativeCaches.rocksDb("  no_block_cache: 1\n  persistent_cache: (nil)\n", "LOG")).isEmpty();
        assertThat(NativeCaches.find(ProcessHandle.current().pid(),
                List.of(new Mapping(0x1000, 0x2000, "r-xp", "/usr/lib/libc.so.6", 4096, 0, 0)))).isEmpty();
    }
}
