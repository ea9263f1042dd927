package dev.offheap.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every untagged {@code ```java} block of README.md compiles and runs as written against offheap-core (see
 * {@link ReadmeSnippets}); a tagged block names a module that runs it.
 */
@Tag("child-jvm")
class ReadmeSnippetsTest {
    @TempDir
    static Path sandboxes;

    @TestFactory
    Stream<DynamicTest> everyJavaBlockOfTheReadmeCompilesAndRuns() throws IOException {
        return ReadmeSnippets.of(JavaSnippet.CORE, sandboxes);
    }

    @Test
    void everyTaggedBlockNamesAModuleWhoseTestsRunIt() throws IOException {
        assertThat(JavaSnippet.modules(Files.readAllLines(ReadmeSnippets.readme(), StandardCharsets.UTF_8)))
                .as("the modules of README.md's ```java blocks: each runs its own in a ReadmeSnippetsTest")
                .isSubsetOf(JavaSnippet.CORE, "offheap-netty", "offheap-jetty");
    }
}
