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

package dev.offheap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/misuse.md promises a test per misuse: every row names at least one test, and every {@code Class#method}
 * it names is a test class of one of the repository's modules (offheap-core's, or an adapter's) with a method of
 * that name (a renamed or deleted test fails here).
 */
class MisuseCatalogueTest {
    private static final Pattern TEST_REFERENCE = Pattern.compile("([A-Z][A-Za-z0-9]*)#([a-z][A-Za-z0-9]*)");
    private static final Pattern CLASS_ONLY = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:Test|Properties))`");

    @Test
    void everyRowNamesTestsThatExist() throws IOException {
        Path root = Repository.root();
        Path catalogue = root.resolve("docs/misuse.md");
        assertThat(catalogue).as("the misuse catalogue").isRegularFile();
        Path tests = root;
        List<String> problems = new ArrayList<>();
        int rows = 0;
        int lineNumber = 0;
        for (String line : Files.readAllLines(catalogue)) {
            lineNumber++;
            if (!line.startsWith("|") || line.startsWith("|---") || line.startsWith("| misuse")) {
                continue;
            }
            rows++;
            String[] cells = line.split("\\|");
            String testCell = cells[cells.length - 1];
            Matcher m = TEST_REFERENCE.matcher(testCell);
            boolean any = false;
            String lastClass = null;
            while (m.find()) {
                any = true;
                lastClass = m.group(1);
                checkMethod(tests, m.group(1), m.group(2), lineNumber, problems);
            }
            // "#other" after a Class#method names another method of the same class
            Matcher more = Pattern.compile("(?<![A-Za-z0-9])#([a-z][A-Za-z0-9]*)").matcher(testCell);
            while (more.find() && lastClass != null) {
                checkMethod(tests, lastClass, more.group(1), lineNumber, problems);
            }
            Matcher classes = CLASS_ONLY.matcher(testCell);
            while (classes.find()) {
                any = true;
                if (findClass(tests, classes.group(1)) == null) {
                    problems.add("line " + lineNumber + ": no test class " + classes.group(1));
                }
            }
            if (!any) {
                problems.add("line " + lineNumber + ": the row names no test: " + line);
            }
        }
        assertThat(rows).as("rows in docs/misuse.md").isGreaterThan(40);
        assertThat(problems).as("test references in docs/misuse.md").isEmpty();
    }

    private static void checkMethod(Path tests, String className, String method, int line, List<String> problems)
            throws IOException {
        Path file = findClass(tests, className);
        if (file == null) {
            problems.add("line " + line + ": no test class " + className);
        } else if (!Pattern.compile("\\b" + method + "\\s*\\(").matcher(Files.readString(file)).find()) {
            problems.add("line " + line + ": " + className + " has no method " + method);
        }
    }

    /** The test class's file in any module's {@code src/test/java}, offheap-core's first. */
    private static Path findClass(Path root, String className) throws IOException {
        List<Path> modules = new ArrayList<>(List.of(root.resolve("offheap-core")));
        try (Stream<Path> all = Files.list(root)) {
            all.filter(m -> Files.isDirectory(m.resolve("src/test/java")) && !modules.contains(m)).sorted()
                    .forEach(modules::add);
        }
        for (Path module : modules) {
            try (Stream<Path> files = Files.walk(module.resolve("src/test/java"))) {
                Path found = files.filter(p -> p.getFileName().toString().equals(className + ".java")).findFirst()
                        .orElse(null);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
