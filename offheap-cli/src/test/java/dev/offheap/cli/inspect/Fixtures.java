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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Outputs recorded from live JVMs, in {@code src/test/resources/dev/offheap/cli/inspect}. Two JVMs ran
 * {@code -XX:NativeMemoryTracking=detail -Xmx256m -XX:+UseG1GC} with eight sleeping threads, 17.0.15 (Debian) and
 * 25.0.3 (Temurin), on Linux 6.18 x86_64; each file of one JDK comes from the same JVM within a second, through
 * jcmd (hence the PID on the first line): {@code jdkN-nmt-detail.txt} ({@code VM.native_memory detail}),
 * {@code jdkN-smaps.txt} ({@code /proc/PID/smaps}, right after), {@code jdk25-system-map.txt} ({@code System.map}),
 * {@code jdkN-gc-heap-info.txt}, {@code jdkN-compiler-codecache.txt}, {@code jdkN-metaspace-vslist.txt}
 * ({@code VM.metaspace vslist}) and {@code jdkN-vm-info-head.txt} ({@code VM.info} up to its GC log: the rest
 * holds the machine's environment).
 */
final class Fixtures {
    private Fixtures() {}

    static String read(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
