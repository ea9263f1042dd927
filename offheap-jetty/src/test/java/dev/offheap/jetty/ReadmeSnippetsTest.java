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
