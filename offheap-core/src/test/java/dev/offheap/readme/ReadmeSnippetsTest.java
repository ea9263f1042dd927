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
