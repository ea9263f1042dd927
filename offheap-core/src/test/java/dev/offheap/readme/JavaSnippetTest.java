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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JavaSnippetTest {
    private static final List<String> MARKDOWN = List.of(
            "# title",                                          // 1
            "```",                                              // 2
            "./offheap test",                                   // 3
            "```",                                              // 4
            "```java",                                          // 5
            "import java.util.List;",                           // 6
            "",                                                 // 7
            "record Point(int x, int y) {}",                    // 8
            "System.out.println(List.of(new Point(1, 2)));",    // 9
            "```",                                              // 10
            "text",                                             // 11
            "```java",                                          // 12
            "import java.util.List;",                           // 13
            "final class Helper {}",                            // 14
            "public class Main {",                              // 15
            "    public static void main(String[] args) {}",    // 16
            "}",                                                // 17
            "```");                                             // 18

    @Test
    void onlyJavaBlocksAreExtractedWithTheirLines() {
        List<JavaSnippet> snippets = JavaSnippet.extract(MARKDOWN);

        assertThat(snippets).extracting(JavaSnippet::firstLine).containsExactly(6, 13);
        assertThat(snippets.getFirst().lines()).hasSize(4).startsWith("import java.util.List;");
    }

    @Test
    void statementsAreWrappedInAMainAfterTheSnippetsImports() {
        JavaSnippet statements = JavaSnippet.extract(MARKDOWN).getFirst();
        JavaSnippet.Source source = statements.source();

        assertThat(statements.isCompilationUnit()).isFalse();
        assertThat(statements.mainClass()).isEqualTo(JavaSnippet.WRAPPER);
        assertThat(source.text()).isEqualTo("""
                import java.util.List;
                public final class ReadmeSnippet {
                public static void main(String[] args) throws Exception {

                record Point(int x, int y) {}
                System.out.println(List.of(new Point(1, 2)));
                }
                }
                """);
        assertThat(source.markdownLine(1)).isEqualTo(6);
        assertThat(source.markdownLine(2)).isZero();
        assertThat(source.markdownLine(6)).isEqualTo(9);
        assertThat(source.markdownLine(7)).isZero();
        assertThat(source.markdownLine(99)).isZero();
    }

    @Test
    void aSnippetWithAMainIsCompiledAsWrittenAndRunsTheTypeDeclaringIt() {
        JavaSnippet unit = JavaSnippet.extract(MARKDOWN).getLast();

        assertThat(unit.isCompilationUnit()).isTrue();
        assertThat(unit.mainClass()).isEqualTo("Main");
        assertThat(unit.source().text()).isEqualTo(String.join("\n", unit.lines()) + "\n");
        assertThat(unit.source().markdownLine(3)).isEqualTo(15);
    }

    @Test
    void aBlockTaggedWithAModuleBelongsToThatModuleOnly() {
        List<String> markdown = List.of(
                "```java offheap-netty",                        // 1
                "System.out.println(1);",                       // 2
                "```",                                          // 3
                "```java",                                      // 4
                "System.out.println(2);",                       // 5
                "```",                                          // 6
                "```java offheap-jetty",                        // 7
                "System.out.println(3);",                       // 8
                "```");                                         // 9

        assertThat(JavaSnippet.extract(markdown)).extracting(JavaSnippet::firstLine).containsExactly(5);
        assertThat(JavaSnippet.extract(markdown, "offheap-core")).extracting(JavaSnippet::firstLine)
                .containsExactly(5);
        assertThat(JavaSnippet.extract(markdown, "offheap-netty")).extracting(JavaSnippet::firstLine)
                .containsExactly(2);
        assertThat(JavaSnippet.modules(markdown)).containsExactly("offheap-netty", "offheap-core", "offheap-jetty");
    }

    @Test
    void anUnclosedTaggedBlockIsRefused() {
        assertThatThrownBy(() -> JavaSnippet.extract(List.of("```java offheap-jetty", "int x = 1;"), "offheap-core"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 1");
    }

    @Test
    void anUnclosedBlockIsRefused() {
        assertThatThrownBy(() -> JavaSnippet.extract(List.of("```java", "int x = 1;")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 1");
    }
}
