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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * RocksDB (its JNI library, from Maven Central) with a block cache of {@code args[0]} MiB, filled by reading back
 * 100,000 values of 1 KiB: a native cache held by design, in glibc's malloc. Prints READY, holds until stdin ends.
 */
public class RocksDbCache {
    public static void main(String[] args) throws Exception {
        RocksDB.loadLibrary();
        Path dir = Files.createTempDirectory("offheap-rocksdb-cache");
        try (Cache cache = new LRUCache(Long.parseLong(args[0]) << 20);
                Options options = new Options().setCreateIfMissing(true)
                        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
                RocksDB db = RocksDB.open(options, dir.toString());
                FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            byte[] value = new byte[1024];
            Random random = new Random(1);
            for (int i = 0; i < 100_000; i++) {
                random.nextBytes(value);
                db.put(("key" + i).getBytes(), value);
            }
            db.flush(flush);
            for (int i = 0; i < 100_000; i++) {
                db.get(("key" + i).getBytes());
            }
            System.err.println("RocksDbCache: block cache usage " + cache.getUsage());
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the cache until the test ends
            }
        } finally {
            try (var files = Files.list(dir)) {
                files.forEach(f -> f.toFile().delete());
            }
            Files.deleteIfExists(dir);
        }
    }
}
