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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.offheap.Repository;
import dev.offheap.suite.Waits;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DynamicTest;

/**
 * Runs the {@code ```java} blocks of the repository's README.md that belong to one module (see
 * {@link JavaSnippet#extract(List, String)}): each compiles and runs as written, so the README cannot drift from
 * the API. offheap-core's {@link ReadmeSnippetsTest} runs the untagged blocks; the adapter modules run theirs
 * ({@code ```java offheap-netty}) through this class, from offheap-core's test jar. How a block becomes a Java file (its imports, the {@code main} it is wrapped in,
 * or a block that is a whole file) is described in {@link JavaSnippet}.
 *
 * <p>Each block is compiled with the system Java compiler against this test's class path, then run in a JVM
 * of its own ({@code --enable-native-access=ALL-UNNAMED}, as a user on the class path would), so that a
 * crash, a JMX name or a budget of one block cannot touch this JVM or another block. The child's working
 * directory and {@code java.io.tmpdir} are fresh directories that must be empty when it ends: a block cleans
 * up what it creates. A block fails the test if it does not compile, exits with an exception, does not end
 * within the suite's bound on any wait ({@link Waits#LIMIT}: a hang, whose threads the failure shows; a block
 * is no benchmark: the gRPC block, about 3 s here, once did not end within the 30 s this allowed before, on a
 * 2-vCPU machine loaded far beyond its cores), prints a warning on stderr (a leak, a pool closed with leases, a
 * native access warning), or leaves files behind; the failure names the README line.
 *
 * <p>A block is compiled and run against the test class path of the module that runs it: an untagged
 * block may use offheap-core and the JDK only.
 */
public final class ReadmeSnippets {
    private static final Pattern WARNING = Pattern.compile("(?im)^.*\\bwarning\\b.*$");

    private ReadmeSnippets() {}

    /**
     * One test per {@code ```java} block of {@code module} in README.md, each run in a fresh directory under
     * {@code sandboxes}; fails if the module has no block.
     */
    public static Stream<DynamicTest> of(String module, Path sandboxes) throws IOException {
        Path readme = readme();
        List<JavaSnippet> snippets = JavaSnippet.extract(Files.readAllLines(readme, StandardCharsets.UTF_8), module);
        assertThat(snippets).as("```java blocks of %s in %s", module, readme).isNotEmpty();
        return snippets.stream().map(snippet -> DynamicTest.dynamicTest("README.md line " + snippet.firstLine(),
                () -> compileAndRun(snippet, sandboxes)));
    }

    /** README.md of the repository. */
    static Path readme() {
        Path readme = Repository.root().resolve("README.md");
        if (!Files.isRegularFile(readme)) {
            fail("README.md is missing from the repository root " + readme.getParent());
        }
        return readme;
    }

    private static void compileAndRun(JavaSnippet snippet, Path sandboxes) throws Exception {
        Path sandbox = Files.createTempDirectory(sandboxes, "line-" + snippet.firstLine() + "-");
        Path sources = Files.createDirectories(sandbox.resolve("src"));
        Path classes = Files.createDirectories(sandbox.resolve("classes"));
        Path work = Files.createDirectories(sandbox.resolve("work"));
        Path tmp = Files.createDirectories(sandbox.resolve("tmp"));
        JavaSnippet.Source source = snippet.source();
        Path file = sources.resolve(snippet.mainClass() + ".java");
        Files.writeString(file, source.text());

        compile(snippet, source, file, classes);
        run(snippet, source, classes, work, tmp);
        List<String> leftOver = new ArrayList<>();
        for (Path dir : List.of(work, tmp)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.filter(path -> !path.equals(dir)).forEach(path -> leftOver.add(path.toString()));
            }
        }
        if (!leftOver.isEmpty()) {
            fail("README.md line %d: the snippet left files behind (in its working directory or java.io.tmpdir):"
                    + " %s", snippet.firstLine(), leftOver);
        }
    }

    private static void compile(JavaSnippet snippet, JavaSnippet.Source source, Path file, Path classes)
            throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertThat(compiler).as("the system Java compiler (this test needs a JDK, not a JRE)").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean compiled;
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            List<String> options = List.of("-proc:none", "-implicit:none", "-d", classes.toString(),
                    "-classpath", System.getProperty("java.class.path"));
            compiled = compiler.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjects(file)).call();
        }
        if (!compiled) {
            StringBuilder report = new StringBuilder();
            for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
                int line = source.markdownLine(diagnostic.getLineNumber());
                report.append("\nREADME.md:").append(line == 0 ? "(wrapper)" : line).append(": ")
                        .append(diagnostic.getKind().toString().toLowerCase(Locale.ROOT)).append(": ")
                        .append(diagnostic.getMessage(Locale.ROOT));
                if (line > 0) {
                    report.append("\n    ").append(snippet.lines().get(line - snippet.firstLine()).strip());
                }
            }
            fail("README.md line %d: the snippet does not compile:%s", snippet.firstLine(), report);
        }
    }

    private static void run(JavaSnippet snippet, JavaSnippet.Source source, Path classes, Path work, Path tmp)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = work.resolveSibling("stdout.txt");
        Path err = work.resolveSibling("stderr.txt");
        Process process = new ProcessBuilder(java.toString(), "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                "-XX:-UsePerfData", "-Djava.io.tmpdir=" + tmp,
                "-cp", classes + File.pathSeparator + System.getProperty("java.class.path"), snippet.mainClass())
                .directory(work.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(Waits.LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            String threads = Waits.threadDump(process);
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            fail("README.md line %d: the snippet did not finish in %s:%n%s%nstdout:%n%s%nits threads then:%n%s",
                    snippet.firstLine(), Waits.LIMIT, inReadmeLines(Files.readString(err), snippet, source),
                    Files.readString(out), threads);
        }
        String stderr = inReadmeLines(Files.readString(err), snippet, source);
        if (process.exitValue() != 0) {
            fail("README.md line %d: the snippet failed (exit code %d):%n%s", snippet.firstLine(),
                    process.exitValue(), stderr);
        }
        Matcher warning = WARNING.matcher(stderr);
        if (warning.find()) {
            fail("README.md line %d: the snippet ran but printed a warning (%s):%n%s", snippet.firstLine(),
                    warning.group().strip(), stderr);
        }
    }

    /** {@code stderr} with the generated file's stack trace lines, "(ReadmeSnippet.java:12)", as README lines. */
    private static String inReadmeLines(String stderr, JavaSnippet snippet, JavaSnippet.Source source) {
        Matcher frame = Pattern.compile("\\(" + Pattern.quote(snippet.mainClass()) + "\\.java:(\\d+)\\)")
                .matcher(stderr);
        return frame.replaceAll(match -> Matcher.quoteReplacement(
                "(README.md:" + source.markdownLine(Long.parseLong(match.group(1))) + ")"));
    }
}
