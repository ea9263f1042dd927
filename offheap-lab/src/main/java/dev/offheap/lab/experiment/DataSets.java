package dev.offheap.lab.experiment;

import dev.offheap.lab.LabContext;

/** The size of the data the memory-reading experiments ({@code order}, {@code store}) run over, per scale. */
final class DataSets {
    private DataSets() {}

    static long bytes(LabContext.Scale scale) {
        return switch (scale) {
            case TINY -> 1L << 20;
            case QUICK -> 64L << 20;
            case FULL -> 1L << 30;
        };
    }
}
