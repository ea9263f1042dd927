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
