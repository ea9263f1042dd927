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

import org.junit.jupiter.api.Test;

/** The virtual threads and their stacks' bytes from a class histogram. */
class VirtualThreadsTest {

    @Test
    void theCountIsTheVirtualThreadRowAndTheStacksTheStackChunkRowsBytes() {
        String histogram = """
                3844:
                 num     #instances         #bytes  class name (module)
                -------------------------------------------------------
                   1:        100000      186316864  jdk.internal.vm.StackChunk (java.base@25.0.3)
                   2:        100000       16800000  java.lang.VirtualThread (java.base@25.0.3)
                   3:          4711         113064  java.lang.VirtualThread$VThreadContinuation (java.base@25.0.3)
                   4:            17            408  my.app.VirtualThreadFactory
                Total        934014      231881416
                """;

        assertThat(VirtualThreads.parse(histogram)).isEqualTo(new VirtualThreads(100_000, 186_316_864));
    }

    @Test
    void aJvmWithoutVirtualThreadsHasNone() {
        assertThat(VirtualThreads.parse(" num     #instances         #bytes  class name (module)\nTotal 10 100\n"))
                .isEqualTo(new VirtualThreads(0, 0));
        assertThat(VirtualThreads.parse("")).isEqualTo(new VirtualThreads(0, 0));
    }
}
