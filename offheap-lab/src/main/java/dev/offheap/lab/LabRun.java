package dev.offheap.lab;

import java.util.List;

/** A whole lab run, for the reports: where, with what, and what each experiment found. */
public record LabRun(String machine, String jdk, String options, String started, double seconds,
        List<Outcome> outcomes) {}
