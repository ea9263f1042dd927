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

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A DuckDB database in memory holding one table of {@code args[0]} rows (16 bytes each), which DuckDB keeps in
 * the jemalloc linked into its JNI library. Prints READY, then holds still until its standard input ends.
 */
public class DuckDbTable {
    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[0]);
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            statement.execute("SET threads = 2");
            statement.execute("CREATE TABLE t AS SELECT range AS id, range * 7 AS v FROM range(" + rows + ")");
            try (ResultSet count = statement.executeQuery("SELECT count(*) FROM t")) {
                count.next();
                System.err.println("DuckDbTable: " + count.getLong(1) + " rows");
            }
            System.out.println("READY");
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold the table until the test ends
            }
        }
    }
}
