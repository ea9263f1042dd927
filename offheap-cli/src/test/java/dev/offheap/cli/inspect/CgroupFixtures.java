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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The recorded cgroup file systems under {@code src/test/resources/cgroup} (see its README.md), read as a process would. */
final class CgroupFixtures {
    private CgroupFixtures() {}

    static Path root(String fixture) {
        try {
            return Path.of(CgroupFixtures.class.getResource("/cgroup/" + fixture).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads {@code /a/b} as {@code fixture/a/b}. */
    static ContainerMemory.Source source(String fixture) {
        Path root = root(fixture);
        return path -> {
            try {
                return Optional.of(Files.readString(root.resolve(path.substring(1))));
            } catch (NoSuchFileException e) {
                return Optional.empty();
            }
        };
    }

    static String file(String fixture, String path) {
        try {
            return Files.readString(root(fixture).resolve(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fixture's process as {@code ContainerMemory.parse} sees it. */
    static ContainerMemory.Result parse(String fixture) {
        return ContainerMemory.parse(file(fixture, "proc/self/cgroup"), file(fixture, "proc/self/mountinfo"), "",
                source(fixture));
    }

    static ContainerMemory memory(String fixture) {
        ContainerMemory.Result result = parse(fixture);
        if (result.memory() == null) {
            throw new AssertionError(fixture + ": " + result.problem());
        }
        return result.memory();
    }

    /** A file system of a few files given as text: path to content. */
    static ContainerMemory.Source source(Map<String, String> files) {
        return path -> Optional.ofNullable(files.get(path));
    }
}
