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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/inspect-json.md against a document made from a live JVM (NMT on, JMX read, an offheap pool, direct and
 * mapped buffers): every path of the document is in the table with its type, every path the table marks
 * "always" is in the document.
 */
@Tag("child-jvm")
class InspectJsonSchemaTest {
    private static final Pattern ROW = Pattern.compile("^\\| (`[^|]+) \\| ([^|]+) \\| ([^|]+) \\|");
    private static final Pattern PATH = Pattern.compile("`([^`]+)`");

    record Documented(Pattern path, String text, String type, String presence) {}

    @Test
    void everyPathOfALiveDocumentIsDocumentedWithItsType(@TempDir Path dir) throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        List<Documented> table = table(Files.readString(Path.of("../docs/inspect-json.md")));
        Map<String, Object> document = inspectLiveTarget(dir);
        Map<String, Object> paths = new LinkedHashMap<>();
        flatten(document, "", paths);

        SoftAssertions softly = new SoftAssertions();
        paths.forEach((path, value) -> {
            Documented row = table.stream().filter(d -> d.path().matcher(path).matches()).findFirst().orElse(null);
            softly.assertThat(row).as("%s is documented", path).isNotNull();
            if (row != null) {
                softly.assertThat(matches(row.type(), value)).as("%s = %s is %s", path, value, row.type()).isTrue();
            }
        });
        for (Documented row : table) {
            if (row.presence().equals("always")) {
                softly.assertThat(paths.keySet().stream().anyMatch(p -> row.path().matcher(p).matches()
                        || p.startsWith(row.text().replace("[]", "[0]") + ".")))
                        .as("%s is always in the document", row.text()).isTrue();
            }
        }
        softly.assertThat(document.get("version")).isEqualTo(3L);
        softly.assertAll();
    }

    /** Every documented path, {@code .x} after a full path meaning a sibling of it. */
    static List<Documented> table(String markdown) {
        List<Documented> rows = new ArrayList<>();
        for (String line : markdown.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (!row.find()) {
                continue;
            }
            String parent = "";
            Matcher path = PATH.matcher(row.group(1));
            while (path.find()) {
                String text = path.group(1);
                if (text.startsWith(".")) {
                    text = parent + text;
                } else {
                    parent = text.contains(".") ? text.substring(0, text.lastIndexOf('.')) : "";
                }
                String regex = Pattern.quote(text).replace("[]", "\\E\\[\\d+\\]\\Q").replace("*", "\\E[^.]+\\Q");
                rows.add(new Documented(Pattern.compile(regex), text, row.group(2).trim(), row.group(3).trim()));
            }
        }
        return rows;
    }

    static boolean matches(String type, Object value) {
        boolean ok = false;
        for (String t : type.split(",| or ")) {
            ok |= switch (t.trim()) {
                case "integer" -> value instanceof Long;
                case "number" -> value instanceof Double || value instanceof Long;
                case "string" -> value instanceof String;
                case "boolean" -> value instanceof Boolean;
                case "object" -> value instanceof Map;
                case "array" -> value instanceof List;
                case "null" -> value == null;
                default -> throw new AssertionError("unknown type " + t);
            };
        }
        return ok;
    }

    /** Every value by its path: leaves, arrays, and objects only when empty (the table documents their members). */
    static void flatten(Object node, String path, Map<String, Object> paths) {
        if (!path.isEmpty() && !(node instanceof Map<?, ?> map && !map.isEmpty())) {
            paths.put(path, node);
        }
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(v, path.isEmpty() ? (String) k : path + "." + k, paths));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(list.get(i), path + "[" + i + "]", paths);
            }
        }
    }

    private static Map<String, Object> inspectLiveTarget(Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process target = new ProcessBuilder(java, "-Xmx512m", "-XX:NativeMemoryTracking=summary",
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                InspectTarget.class.getName(), dir.resolve("mapped.bin").toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(lines.readLine()).isEqualTo("BASELINE");
            target.getOutputStream().write("go\n".getBytes(StandardCharsets.UTF_8));
            target.getOutputStream().flush();
            assertThat(lines.readLine()).isEqualTo("READY");
            return InspectRun.json(target.pid(), "--jmx");
        } finally {
            AttachTargets.end(target);
        }
    }
}
