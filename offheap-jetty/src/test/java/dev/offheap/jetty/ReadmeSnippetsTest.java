package dev.offheap.jetty;

import dev.offheap.readme.ReadmeSnippets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** README.md's {@code ```java offheap-jetty} blocks compile and run against this module. */
class ReadmeSnippetsTest {
    @TempDir
    static Path sandboxes;

    @TestFactory
    Stream<DynamicTest> everyJettyBlockOfTheReadmeCompilesAndRuns() throws IOException {
        return ReadmeSnippets.of("offheap-jetty", sandboxes);
    }
}
