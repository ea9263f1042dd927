package dev.offheap.netty;

import dev.offheap.readme.ReadmeSnippets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** README.md's {@code ```java offheap-netty} blocks (Netty and gRPC) compile and run against this module. */
class ReadmeSnippetsTest {
    @TempDir
    static Path sandboxes;

    @TestFactory
    Stream<DynamicTest> everyNettyBlockOfTheReadmeCompilesAndRuns() throws IOException {
        return ReadmeSnippets.of("offheap-netty", sandboxes);
    }
}
