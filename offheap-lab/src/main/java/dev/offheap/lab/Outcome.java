package dev.offheap.lab;

/** How one experiment of a lab run ended: its result, whether it ran, failed or was skipped, how long it took. */
public record Outcome(ExperimentResult result, Status status, double seconds) {
    public enum Status { OK, SKIPPED, FAILED }
}
