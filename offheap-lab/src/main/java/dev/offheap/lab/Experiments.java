package dev.offheap.lab;

import dev.offheap.lab.experiment.AllocExperiment;
import dev.offheap.lab.experiment.GcExperiment;
import dev.offheap.lab.experiment.IoExperiment;
import dev.offheap.lab.experiment.OrderExperiment;
import dev.offheap.lab.experiment.ServerExperiment;
import dev.offheap.lab.experiment.StoreExperiment;
import java.util.List;

/** The lab's experiments, in the order they run. */
public final class Experiments {
    private Experiments() {}

    public static List<Experiment> all() {
        return List.of(
                new AllocExperiment(),
                new IoExperiment(),
                new OrderExperiment(),
                new StoreExperiment(),
                new GcExperiment(),
                new ServerExperiment());
    }
}
