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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DuckDB (JDBC, in memory): one table of {@code rows} rows of two BIGINTs, held in the jemalloc that DuckDB's JNI
 * library links for its own use. Publishes DuckDB's own view of its memory ({@code duckdb_memory()}).
 */
public final class DuckDbTable {
    private static Connection connection;

    private DuckDbTable() {}

    public static void main(String[] args) throws Exception {
        long rows = Workload.arg(args, "rows", 20_000_000);
        connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET threads = 2");
            statement.execute("CREATE TABLE t AS SELECT range AS id, range * 7 AS v FROM range(" + rows + ")");
        }
        Workload.ready("duckdb", () -> {
            Map<String, Long> f = new LinkedHashMap<>();
            f.put("rows", rows);
            try (Statement statement = connection.createStatement();
                    ResultSet usage = statement.executeQuery("SELECT sum(memory_usage_bytes) FROM duckdb_memory()")) {
                usage.next();
                f.put("duckdbMemoryUsage", usage.getLong(1));
            } catch (Exception e) {
                f.put("duckdbMemoryUsage", -1L);
            }
            return f;
        });
        Workload.hold();
    }
}
