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

package dev.offheap.recorder;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * The recorder's jar, to give {@code -javaagent} or the attach mechanism's {@code load}: the jar its classes were
 * loaded from, or, when they were loaded from a directory (a build's tests, an IDE), a jar made from that
 * directory with the agent's manifest, once, in {@code java.io.tmpdir}.
 */
final class AgentJar {
    private AgentJar() {}

    static Path locate() throws IOException {
        Path location;
        try {
            location = Path.of(MemoryRecorder.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IOException("cannot find the recorder's jar: " + e);
        }
        return Files.isDirectory(location) ? jarOf(location) : location;
    }

    private static Path jarOf(Path classes) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            walk.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().equals("module-info.class"))
                    .forEach(files::add);
        }
        Collections.sort(files);
        long stamp = 0;
        for (Path f : files) {
            stamp = stamp * 31 + Files.getLastModifiedTime(f).toMillis() + f.toString().hashCode();
        }
        Path jar = Path.of(System.getProperty("java.io.tmpdir"), "offheap-recorder-classes-" + Long.toHexString(stamp) + ".jar");
        if (Files.exists(jar)) {
            return jar;
        }
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", MemoryRecorder.class.getName());
        m.getMainAttributes().putValue("Agent-Class", MemoryRecorder.class.getName());
        Path part = jar.resolveSibling(jar.getFileName() + "." + ProcessHandle.current().pid() + ".part");
        try (OutputStream file = Files.newOutputStream(part); JarOutputStream out = new JarOutputStream(file, m)) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return Files.move(part, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
