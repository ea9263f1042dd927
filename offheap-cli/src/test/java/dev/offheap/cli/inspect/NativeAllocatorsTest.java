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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Allocators found by their libraries' names and by their own messages inside other libraries. */
class NativeAllocatorsTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    @Test
    void aLibraryNamedAfterItsAllocatorReplacesMalloc() {
        List<Mapping> mappings = List.of(file(0x1000, "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"),
                file(0x2000, "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2"), file(0x3000, "/opt/lib/libmimalloc.so.2.1"),
                file(0x4000, "/usr/lib/libtcmalloc_minimal.so.4"), file(0x5000, "/usr/lib/libjemallocator-notes.txt"));

        assertThat(NativeAllocators.byName(mappings)).containsExactly(
                new NativeAllocator("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", false),
                new NativeAllocator("mimalloc", "/opt/lib/libmimalloc.so.2.1", false),
                new NativeAllocator("tcmalloc", "/usr/lib/libtcmalloc_minimal.so.4", false));
    }

    @Test
    void anAllocatorLinkedIntoALibraryIsFoundByItsOwnMessagesAndTheJdksLibrariesAreNeverRead() throws IOException {
        Path duck = library("libduckdb_java42.so", "\0\0<jemalloc>: Abort (abort_conf:true) on invalid conf value\0");
        Path engine = library("libengine.so.1", "mimalloc: warning: option\0tcmalloc: large alloc 12345\0");
        Path plain = library("libz.so.1", "inflate 1.3 Copyright 1995-2023 Mark Adler; jemalloc is a word here\0");
        Path jdkLib = library("jdk/lib/libzip.so", "<jemalloc>: but the JDK's own libraries are skipped\0");
        List<Mapping> mappings = List.of(file(0x1000, duck + " (deleted)"), file(0x2000, duck + " (deleted)"),
                file(0x3000, engine.toString()), file(0x4000, plain.toString()), file(0x5000, jdkLib.toString()),
                anonymous(0x6000));

        List<NativeAllocator> found = NativeAllocators.find(mappings, dir.resolve("jdk").toString(), NativeAllocatorsTest::open);

        assertThat(found).containsExactlyInAnyOrder(
                new NativeAllocator("jemalloc", duck + " (deleted)", true),
                new NativeAllocator("mimalloc", engine.toString(), true),
                new NativeAllocator("tcmalloc", engine.toString(), true));
        assertThat(found.getFirst().label()).isEqualTo("jemalloc in libduckdb_java42.so");
        assertThat(found.getFirst().component()).isEqualTo(NativeAllocator.KnownLibrary.DUCKDB);
        assertThat(new NativeAllocator("jemalloc", "/tmp/libduckdb_java11763049790371700607.so (deleted)", true).label())
                .as("a loader's temporary name").isEqualTo("jemalloc in libduckdb_java*.so");
        assertThat(new NativeAllocator("jemalloc", "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2", false).label())
                .isEqualTo("jemalloc");
    }

    @Test
    void aMessageAcrossTwoChunksIsFound() throws IOException {
        byte[] bytes = new byte[(4 << 20) + 100];
        byte[] marker = "<jemalloc>: ".getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(marker, 0, bytes, (4 << 20) - 5, marker.length);
        Path lib = dir.resolve("libbig.so");
        Files.write(lib, bytes);

        try (FileChannel file = FileChannel.open(lib, StandardOpenOption.READ)) {
            assertThat(NativeAllocators.scan(file)).isEqualTo(Set.of("jemalloc"));
        }
        bytes[(4 << 20) - 5] = 'x';
        Files.write(lib, bytes);
        try (FileChannel file = FileChannel.open(lib, StandardOpenOption.READ)) {
            assertThat(NativeAllocators.scan(file)).isEmpty();
        }
    }

    @Test
    void aLibraryThatCannotBeOpenedNamesNoAllocator() {
        List<Mapping> mappings = List.of(file(0x1000, "/gone/libduckdb_java.so (deleted)"));

        assertThat(NativeAllocators.find(mappings, null, m -> Optional.empty())).isEmpty();
    }

    @Test
    void aLibraryThisJvmMapsIsReadThroughProcAndItsAllocatorFound() throws IOException {
        Path lib = library("libengine.so", "<jemalloc>: conf\0");
        try (FileChannel file = FileChannel.open(lib, StandardOpenOption.READ)) {
            var mapped = file.map(FileChannel.MapMode.READ_ONLY, 0, file.size());
            mapped.get(0); // resident, so smaps lists it like any library
            long pid = ProcessHandle.current().pid();
            List<Mapping> mappings = Smaps.parse(Files.readString(Path.of("/proc/self/smaps")));

            assertThat(NativeAllocators.find(pid, mappings, System.getProperty("java.home")))
                    .containsExactly(new NativeAllocator("jemalloc", lib.toString(), true));
        }
    }

    @Test
    void thisJvmsOwnLibrariesHoldNoOtherAllocator() throws IOException {
        long pid = ProcessHandle.current().pid();
        List<Mapping> mappings = Smaps.parse(Files.readString(Path.of("/proc/self/smaps")));

        assertThat(NativeAllocators.find(pid, mappings, System.getProperty("java.home"))).isEmpty();
        assertThat(NativeAllocators.find(pid, mappings, null)).as("the JDK's own libraries, read too, link none").isEmpty();
    }

    private Path library(String name, String content) throws IOException {
        Path lib = dir.resolve(name);
        Files.createDirectories(lib.getParent());
        Files.write(lib, ("\177ELF" + "x".repeat(1000) + content + "y".repeat(1000)).getBytes(StandardCharsets.ISO_8859_1));
        return lib;
    }

    private static Optional<FileChannel> open(Mapping m) {
        try {
            return Optional.of(FileChannel.open(Path.of(m.path().replace(" (deleted)", "")), StandardOpenOption.READ));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Mapping file(long start, String path) {
        return new Mapping(start, start + 0x1000, "r--p", path, 4096, 0, 0);
    }

    private static Mapping anonymous(long start) {
        return new Mapping(start, start + MIB, "rw-p", "", MIB, MIB, 0);
    }

}
