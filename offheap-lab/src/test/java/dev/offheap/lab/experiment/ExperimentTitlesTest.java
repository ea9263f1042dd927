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

package dev.offheap.lab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.Experiment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The names --only accepts and the titles the reports print. */
class ExperimentTitlesTest {
    @Test
    void eachExperimentHasItsNameAndTitle() {
        List<Experiment> experiments = List.of(new AllocExperiment(), new IoExperiment(), new OrderExperiment(),
                new StoreExperiment(), new GcExperiment(), new ServerExperiment());

        assertThat(experiments).extracting(Experiment::name)
                .containsExactly("alloc", "io", "order", "store", "gc", "server");
        assertThat(experiments).extracting(Experiment::title).containsExactly(
                "Get and give back a buffer of 128 B to 16 MiB: heap, direct, arena, offheap pool, Netty pool",
                "Read a file, change it, write it back: heap vs direct vs pooled buffers, transferTo as the floor",
                "Sum longs through big-endian and native-order direct buffers and offheap's store",
                "Read doubles in order and at random: double[], flat segment, offheap store, seed 003's ByteBuffer[]",
                "A buffer per message (direct, heap) or a pool lease, under G1 and ZGC; DirectMemoryChaser vs a budget",
                "A static-file HTTP server over loopback with heap, direct, view and pooled buffers; Netty and Jetty"
                        + " servers on offheap and on their own allocators");
    }
}
