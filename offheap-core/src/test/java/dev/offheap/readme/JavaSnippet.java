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

package dev.offheap.readme;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fenced {@code ```java} block of a Markdown file, and the Java source file it becomes.
 *
 * <p>The snippet's {@code import} lines become the file's imports: a snippet must show every import it needs.
 * The rest is wrapped by one of two rules:
 * <ul>
 *   <li>A snippet without {@code static void main(} is a list of statements (local classes, records, enums
 *       and interfaces included, as Java allows them in a method): it becomes the body of
 *       {@code public static void main(String[] args) throws Exception} in a class named {@link #WRAPPER}.
 *   <li>A snippet with {@code static void main(} is a whole compilation unit and is compiled as written; the
 *       type it runs is the last one declared at column 0 ({@code class}, {@code record}, {@code interface}
 *       or {@code enum}, after any modifiers) before the {@code main} line.
 * </ul>
 * Every line of the source file remembers its line in the Markdown file, so compiler diagnostics and stack
 * traces can name the README's line.
 */
record JavaSnippet(int fenceLine, List<String> lines) {
    static final String WRAPPER = "ReadmeSnippet";

    private static final Pattern TYPE_DECLARATION = Pattern.compile(
            "^(?:(?:public|final|abstract|sealed|non-sealed|static|strictfp)\\s+)*"
                    + "(?:class|record|interface|enum)\\s+(\\w+)");

    JavaSnippet {
        lines = List.copyOf(lines);
    }

    /** The module whose test class path an untagged {@code ```java} block is compiled and run against. */
    static final String CORE = "offheap-core";

    /** Every untagged {@code ```java} block of {@code markdown}, in order: the blocks of offheap-core. */
    static List<JavaSnippet> extract(List<String> markdown) {
        return extract(markdown, CORE);
    }

    /**
     * Every {@code ```java} block of {@code markdown} that belongs to {@code module}, in order; fails on any
     * block that is never closed. A fence {@code ```java offheap-netty} names the module whose test class path
     * the block needs; a plain {@code ```java} block is offheap-core's.
     */
    static List<JavaSnippet> extract(List<String> markdown, String module) {
        List<JavaSnippet> snippets = new ArrayList<>();
        for (int i = 0; i < markdown.size(); i++) {
            String owner = moduleOf(markdown.get(i));
            if (owner == null) {
                continue;
            }
            int fence = i;
            List<String> body = new ArrayList<>();
            for (i++; i < markdown.size() && !markdown.get(i).strip().equals("```"); i++) {
                body.add(markdown.get(i));
            }
            if (i == markdown.size()) {
                throw new IllegalArgumentException("the ```java block at line " + (fence + 1) + " is never closed");
            }
            if (owner.equals(module)) {
                snippets.add(new JavaSnippet(fence + 1, body));
            }
        }
        return snippets;
    }

    /** The modules that {@code ```java} blocks of {@code markdown} belong to, in the order they first appear. */
    static Set<String> modules(List<String> markdown) {
        Set<String> modules = new LinkedHashSet<>();
        for (String line : markdown) {
            String owner = moduleOf(line);
            if (owner != null) {
                modules.add(owner);
            }
        }
        return modules;
    }

    /** The module a fence line opens a Java block for, or null if the line opens none. */
    private static String moduleOf(String line) {
        String fence = line.strip();
        if (fence.equals("```java")) {
            return CORE;
        }
        return fence.startsWith("```java ") ? fence.substring("```java ".length()).strip() : null;
    }

    /** The Markdown line (1-based) of the snippet's first line of code. */
    int firstLine() {
        return fenceLine + 1;
    }

    boolean isCompilationUnit() {
        return lines.stream().anyMatch(line -> line.contains("static void main("));
    }

    /** The class whose {@code main} runs the snippet. */
    String mainClass() {
        if (!isCompilationUnit()) {
            return WRAPPER;
        }
        String name = null;
        for (String line : lines) {
            if (line.contains("static void main(")) {
                break;
            }
            Matcher declaration = TYPE_DECLARATION.matcher(line);
            if (declaration.find()) {
                name = declaration.group(1);
            }
        }
        if (name == null) {
            throw new IllegalStateException("the snippet at line " + firstLine() + " has a main method but no"
                    + " type declared at column 0 before it");
        }
        return name;
    }

    /** The Java source file: its text and, for each of its lines, the Markdown line it came from (0 if none). */
    Source source() {
        Source source = new Source();
        if (isCompilationUnit()) {
            for (int i = 0; i < lines.size(); i++) {
                source.add(lines.get(i), firstLine() + i);
            }
            return source;
        }
        for (int i = 0; i < lines.size(); i++) {
            if (isImport(lines.get(i))) {
                source.add(lines.get(i), firstLine() + i);
            }
        }
        source.add("public final class " + WRAPPER + " {", 0);
        source.add("public static void main(String[] args) throws Exception {", 0);
        for (int i = 0; i < lines.size(); i++) {
            if (!isImport(lines.get(i))) {
                source.add(lines.get(i), firstLine() + i);
            }
        }
        source.add("}", 0);
        source.add("}", 0);
        return source;
    }

    private static boolean isImport(String line) {
        return line.startsWith("import ");
    }

    /** A generated source file that maps its lines back to the Markdown file. */
    static final class Source {
        private final StringBuilder text = new StringBuilder();
        private final List<Integer> markdownLines = new ArrayList<>();

        private void add(String line, int markdownLine) {
            text.append(line).append('\n');
            markdownLines.add(markdownLine);
        }

        String text() {
            return text.toString();
        }

        /** The Markdown line of the source's line {@code sourceLine} (1-based), or 0 for a wrapper line. */
        int markdownLine(long sourceLine) {
            return sourceLine >= 1 && sourceLine <= markdownLines.size()
                    ? markdownLines.get((int) sourceLine - 1) : 0;
        }
    }
}
