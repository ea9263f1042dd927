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

package dev.offheap.recorder;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How a {@link MemoryRecorder} runs. As a Java agent's argument: comma-separated {@code key=value} pairs, e.g.
 * {@code dir=/var/log/offheap,interval=5s,history=720,thresholds=75:90,signal=USR2}:
 * <ul>
 * <li>{@code dir}: where reports are written (default: the JVM's temporary directory, {@code java.io.tmpdir});</li>
 * <li>{@code interval}: time between samples ({@code 5s} by default; {@code 500ms}, {@code 10s}, {@code 1m});</li>
 * <li>{@code history}: samples kept, the oldest dropped first (720 by default: an hour at 5 s);</li>
 * <li>{@code thresholds}: shares of the container's memory limit, in percent, at which the working set's crossing
 * writes a report ({@code 75:90} by default; {@code none} for no such reports);</li>
 * <li>{@code limit}: the limit the thresholds are shares of, in bytes or with a unit ({@code 2g}, {@code 512m}),
 * for a JVM outside a container or with a limit the cgroup does not say (default: the cgroup's);</li>
 * <li>{@code signal}: the signal that writes a report ({@code USR2} by default; {@code none} for no handler).</li>
 * </ul>
 */
public final class RecorderOptions {
    /** The default time between samples. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);
    /** The default number of samples kept: an hour at the default interval. */
    public static final int DEFAULT_HISTORY = 720;

    private final Path directory;
    private final Duration interval;
    private final int history;
    private final List<Integer> thresholds;
    private final long limit;
    private final String signal;

    private RecorderOptions(Path directory, Duration interval, int history, List<Integer> thresholds, long limit,
            String signal) {
        this.directory = directory;
        this.interval = interval;
        this.history = history;
        this.thresholds = List.copyOf(thresholds);
        this.limit = limit;
        this.signal = signal;
    }

    /**
     * The defaults: reports in {@code java.io.tmpdir}, a sample every 5 s, an hour kept, reports at 75 % and 90 %.
     *
     * @return the default options
     */
    public static RecorderOptions defaults() {
        return new RecorderOptions(Path.of(System.getProperty("java.io.tmpdir")), DEFAULT_INTERVAL, DEFAULT_HISTORY,
                List.of(75, 90), -1, "USR2");
    }

    /**
     * Reads an agent's argument.
     *
     * @param text comma-separated {@code key=value} pairs, or null or empty for the defaults
     * @return the options
     * @throws IllegalArgumentException naming the pair that cannot be read
     */
    public static RecorderOptions parse(String text) {
        RecorderOptions o = defaults();
        if (text == null || text.isBlank()) {
            return o;
        }
        for (String pair : text.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("offheap recorder: '" + pair + "' is not key=value (keys: dir, interval,"
                        + " history, thresholds, limit, signal)");
            }
            String key = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            switch (key) {
                case "dir" -> o = o.directory(Path.of(value));
                case "interval" -> o = o.interval(duration(value));
                case "history" -> o = o.history(number(key, value));
                case "thresholds" -> o = o.thresholds(percents(value));
                case "limit" -> o = o.limit(bytes(value));
                case "signal" -> o = o.signal(value);
                default -> throw new IllegalArgumentException("offheap recorder: unknown option '" + key
                        + "' (keys: dir, interval, history, thresholds, limit, signal)");
            }
        }
        return o;
    }

    /**
     * Returns these options with that directory.
     *
     * @param directory where reports are written
     * @return these options with that directory
     */
    public RecorderOptions directory(Path directory) {
        return new RecorderOptions(directory, interval, history, thresholds, limit, signal);
    }

    /**
     * Returns these options with that interval.
     *
     * @param interval the time between samples, at least 100 ms
     * @return these options with that interval
     */
    public RecorderOptions interval(Duration interval) {
        if (interval.toMillis() < 100) {
            throw new IllegalArgumentException("offheap recorder: interval " + interval.toMillis()
                    + " ms is below 100 ms");
        }
        return new RecorderOptions(directory, interval, history, thresholds, limit, signal);
    }

    /**
     * Returns these options with that history.
     *
     * @param history the number of samples kept, at least 2
     * @return these options with that history
     */
    public RecorderOptions history(int history) {
        if (history < 2) {
            throw new IllegalArgumentException("offheap recorder: history " + history + " keeps fewer than 2 samples");
        }
        return new RecorderOptions(directory, interval, history, thresholds, limit, signal);
    }

    /**
     * Returns these options with those thresholds.
     *
     * @param percents shares of the limit, each in 1..100
     * @return these options with those thresholds
     */
    public RecorderOptions thresholds(List<Integer> percents) {
        for (int p : percents) {
            if (p < 1 || p > 100) {
                throw new IllegalArgumentException("offheap recorder: threshold " + p + " % is not in 1..100");
            }
        }
        java.util.TreeSet<Integer> sorted = new java.util.TreeSet<>(percents);
        return new RecorderOptions(directory, interval, history, new ArrayList<>(sorted), limit, signal);
    }

    /**
     * Returns these options with that limit.
     *
     * @param bytes the limit the thresholds are shares of; -1 for the cgroup's
     * @return these options with that limit
     */
    public RecorderOptions limit(long bytes) {
        return new RecorderOptions(directory, interval, history, thresholds, bytes, signal);
    }

    /**
     * Returns these options with that signal.
     *
     * @param name a signal's name without {@code SIG} ({@code USR2}), or {@code none}
     * @return these options with that signal
     */
    public RecorderOptions signal(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        return new RecorderOptions(directory, interval, history, thresholds, limit,
                n.startsWith("SIG") ? n.substring(3) : n);
    }

    /**
     * Returns where reports are written.
     *
     * @return where reports are written
     */
    public Path directory() {
        return directory;
    }

    /**
     * Returns the time between samples.
     *
     * @return the time between samples
     */
    public Duration interval() {
        return interval;
    }

    /**
     * Returns the number of samples kept.
     *
     * @return the number of samples kept
     */
    public int history() {
        return history;
    }

    /**
     * Returns the thresholds in percent of the limit, ascending.
     *
     * @return the thresholds in percent of the limit, ascending
     */
    public List<Integer> thresholds() {
        return thresholds;
    }

    /**
     * Returns the limit set by {@code limit=}, or -1 for the cgroup's.
     *
     * @return the limit set by {@code limit=}, or -1 for the cgroup's
     */
    public long limit() {
        return limit;
    }

    /**
     * Returns the signal's name ({@code USR2}), or {@code NONE}.
     *
     * @return the signal's name ({@code USR2}), or {@code NONE}
     */
    public String signal() {
        return signal;
    }

    @Override
    public String toString() {
        return "dir=" + directory + ",interval=" + interval.toMillis() + "ms,history=" + history + ",thresholds="
                + (thresholds.isEmpty() ? "none" : joined(thresholds))
                + (limit >= 0 ? ",limit=" + limit : "") + ",signal=" + signal;
    }

    private static String joined(List<Integer> percents) {
        StringBuilder b = new StringBuilder();
        for (int p : percents) {
            b.append(b.length() == 0 ? "" : ":").append(p);
        }
        return b.toString();
    }

    static Duration duration(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
            } else if (v.endsWith("m")) {
                return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.ofSeconds(Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("offheap recorder: interval '" + value + "' is not a duration (5s, 500ms, 1m)");
        }
    }

    static long bytes(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        char last = v.isEmpty() ? ' ' : v.charAt(v.length() - 1);
        switch (last) {
            case 'k' -> unit = 1L << 10;
            case 'm' -> unit = 1L << 20;
            case 'g' -> unit = 1L << 30;
            case 't' -> unit = 1L << 40;
            default -> unit = 1;
        }
        try {
            long n = Long.parseLong(unit == 1 ? v : v.substring(0, v.length() - 1));
            if (n <= 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("offheap recorder: limit '" + value + "' is not a size (2g, 512m, bytes)");
        }
    }

    private static int number(String key, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("offheap recorder: " + key + " '" + value + "' is not a number");
        }
    }

    private static List<Integer> percents(String value) {
        List<Integer> list = new ArrayList<>();
        if (!value.equalsIgnoreCase("none")) {
            for (String p : value.split(":")) {
                list.add(number("thresholds", p.trim()));
            }
        }
        return list;
    }
}
