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

package dev.offheap.accuracy.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * RocksDB (JNI) with a block cache of {@code cacheMb} MiB, filled by reading back {@code rows} values of 1 KiB: a
 * native cache held by design in glibc's malloc. Publishes the cache's own usage.
 */
public final class RocksDbCache {
    private RocksDbCache() {}

    public static void main(String[] args) throws Exception {
        long cacheMb = Workload.arg(args, "cacheMb", 256);
        long rows = Workload.arg(args, "rows", 300_000);
        RocksDB.loadLibrary();
        Path dir = Files.createTempDirectory("accuracy-rocksdb");
        Cache cache = new LRUCache(cacheMb << 20);
        Options options = new Options().setCreateIfMissing(true)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
        RocksDB db = RocksDB.open(options, dir.toString());
        byte[] value = new byte[1024];
        Random random = new Random(1);
        for (long i = 0; i < rows; i++) {
            random.nextBytes(value);
            db.put(("key" + i).getBytes(), value);
        }
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        }
        for (long i = 0; i < rows; i++) {
            db.get(("key" + i).getBytes());
        }
        Workload.ready("rocksdb", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("blockCacheCapacity", cacheMb << 20);
            f.put("blockCacheUsage", cache.getUsage());
            return f;
        });
        Workload.hold();
    }
}
