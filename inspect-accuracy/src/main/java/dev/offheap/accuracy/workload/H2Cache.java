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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * An H2 database (MVStore, file mode) with a 512 MB page cache ({@code CACHE_SIZE=524288}, in KB), filled by
 * inserts and then by queries that read the table back: point lookups by key and full scans. H2 keeps its cache
 * on the Java heap and reads its file through a FileChannel, so this workload is mostly heap.
 *
 * <p>Arguments: {@code dir=/tmp/... rows=300000 rowBytes=1000 cacheKb=524288 lookups=100000}.
 */
public final class H2Cache {
    private H2Cache() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(Workload.text(args, "dir", "/tmp/inspect-accuracy-h2"));
        long rows = Workload.arg(args, "rows", 300_000);
        int rowBytes = (int) Workload.arg(args, "rowBytes", 1000);
        long cacheKb = Workload.arg(args, "cacheKb", 512 * 1024);
        long lookups = Workload.arg(args, "lookups", 100_000);
        delete(dir);
        Files.createDirectories(dir);
        Connection db = DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("db") + ";CACHE_SIZE=" + cacheKb, "sa", "");
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE item(id BIGINT PRIMARY KEY, name VARCHAR(64), payload VARCHAR(" + rowBytes + "))");
        }
        SplittableRandom random = new SplittableRandom(7);
        db.setAutoCommit(false);
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO item VALUES (?, ?, ?)")) {
            char[] text = new char[rowBytes];
            for (long id = 0; id < rows; id++) {
                for (int i = 0; i < text.length; i++) {
                    text[i] = (char) ('a' + random.nextInt(26));
                }
                insert.setLong(1, id);
                insert.setString(2, "item-" + id);
                insert.setString(3, new String(text));
                insert.addBatch();
                if (id % 1000 == 999) {
                    insert.executeBatch();
                    db.commit();
                }
            }
            insert.executeBatch();
            db.commit();
        }
        Workload.log("inserted " + rows + " rows");
        long found = 0;
        try (PreparedStatement point = db.prepareStatement("SELECT LENGTH(payload) FROM item WHERE id = ?")) {
            for (long i = 0; i < lookups; i++) {
                point.setLong(1, random.nextLong(rows));
                try (ResultSet r = point.executeQuery()) {
                    if (r.next()) {
                        found += r.getLong(1);
                    }
                }
            }
        }
        long scanned = 0;
        try (Statement s = db.createStatement()) {
            for (int i = 0; i < 2; i++) {
                try (ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(LENGTH(payload)) FROM item WHERE name LIKE 'item-%'")) {
                    r.next();
                    scanned = r.getLong(2);
                }
            }
        }
        Workload.log("looked up " + lookups + " rows (" + found + " bytes), scanned " + scanned + " bytes");
        long cacheUsed = info(db, "info.CACHE_SIZE");
        long cacheMax = info(db, "info.CACHE_MAX_SIZE");
        long fileBytes;
        try (Stream<Path> files = Files.list(dir)) {
            fileBytes = files.mapToLong(p -> p.toFile().length()).sum();
        }
        System.gc();
        Workload.ready("h2-cache", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("rows", rows);
            f.put("cacheSizeKb", cacheKb);
            f.put("cacheMaxMb", cacheMax);
            f.put("cacheUsedMb", cacheUsed);
            f.put("fileBytes", fileBytes);
            return f;
        });
        Workload.hold();
    }

    /** One of MVStore's figures ({@code info.CACHE_SIZE} and {@code info.CACHE_MAX_SIZE} are in MB), or -1. */
    private static long info(Connection db, String name) {
        try (Statement s = db.createStatement();
             ResultSet r = s.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = '" + name + "'")) {
            return r.next() ? Long.parseLong(r.getString(1)) : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    static void delete(Path dir) throws java.io.IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
