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
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Chunks malloc mapped on their own, found by their headers in this JVM's own memory. */
class MallocChunksTest {
    /** Above glibc's largest mmap threshold (32 MiB), so malloc maps it on its own whatever it learnt before. */
    private static final long SIZE = 64L << 20;

    @Test
    void aLargeMallocIsAChunkAndAPoolsMappingIsNot() throws Throwable {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        Linker linker = Linker.nativeLinker();
        MethodHandle malloc = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
        MethodHandle free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
        MemorySegment block = ((MemorySegment) malloc.invokeExact(SIZE)).reinterpret(SIZE);
        try (BufferPool pool = BufferPool.builder().name("malloc-chunks-test").jmx(false).build();
             BufferLease lease = pool.acquire(1 << 20)) {
            block.fill((byte) 1);
            lease.segment().fill((byte) 1);
            long pid = ProcessHandle.current().pid();
            List<Mapping> mappings = Smaps.parse(Files.readString(Path.of("/proc/self/smaps")));
            Mapping chunkMapping = containing(mappings, block.address());
            Mapping poolMapping = containing(mappings, lease.segment().address());

            MallocChunks.Result result = MallocChunks.find(pid, List.of(chunkMapping, poolMapping));

            assertThat(result.problem()).isNull();
            assertThat(result.chunks().orElseThrow()).hasSize(1).first().satisfies(chunk -> {
                assertThat(chunk.start()).isEqualTo(block.address() - 16);
                assertThat(chunk.end()).isGreaterThanOrEqualTo(block.address() + SIZE);
            });
        } finally {
            free.invokeExact(block);
        }
    }

    @Test
    void anUnreadableTargetSaysWhy() {
        MallocChunks.Result result = MallocChunks.find(Long.MAX_VALUE, List.of());

        assertThat(result.chunks()).isEmpty();
        assertThat(result.problem()).startsWith("cannot read the target's memory (/proc/" + Long.MAX_VALUE + "/mem");
    }

    private static Mapping containing(List<Mapping> mappings, long address) {
        return mappings.stream().filter(m -> m.start() <= address && address < m.end()).findFirst().orElseThrow();
    }
}
