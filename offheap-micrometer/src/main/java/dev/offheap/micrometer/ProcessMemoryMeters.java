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

package dev.offheap.micrometer;

import dev.offheap.recorder.MemoryRecorder;
import dev.offheap.recorder.MemorySample;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The process's resident memory by owner, as offheap's recorder samples it ({@link MemorySample}):
 * {@code offheap.process.memory} tagged {@code part=heap|metaspace|codeCache|direct|native|files|sharedMemory}
 * (their sum is the RSS), {@code offheap.process.rss}, and, in a memory cgroup,
 * {@code offheap.container.working.set} and {@code offheap.container.limit} (bytes; NaN when not known). With a
 * running {@link MemoryRecorder} the meters read its last sample; without one, a sample taken when a meter is read,
 * at most once a second.
 */
public final class ProcessMemoryMeters implements MeterBinder {
    private static final String[] PARTS = {"heap", "metaspace", "codeCache", "direct", "native", "files", "sharedMemory"};
    private final Supplier<MemorySample> samples;
    private final Iterable<Tag> tags;

    private ProcessMemoryMeters(Supplier<MemorySample> samples, Iterable<Tag> tags) {
        this.samples = samples;
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    /**
     * Meters reading a running recorder's last sample.
     *
     * @param recorder the recorder
     * @param tags more tags for every meter, e.g. the application's
     * @return the binder
     * @throws NullPointerException if an argument is null
     */
    public static ProcessMemoryMeters of(MemoryRecorder recorder, Iterable<Tag> tags) {
        Objects.requireNonNull(recorder, "recorder");
        return new ProcessMemoryMeters(recorder::latest, tags);
    }

    /**
     * Meters that sample the process when read, at most once a second; the recorder the Java agent started is used
     * instead when there is one.
     *
     * @param tags more tags for every meter
     * @return the binder
     * @throws NullPointerException if {@code tags} is null
     */
    public static ProcessMemoryMeters sampling(Iterable<Tag> tags) {
        return sampling(tags, Duration.ofSeconds(1));
    }

    static ProcessMemoryMeters sampling(Iterable<Tag> tags, Duration maxAge) {
        return new ProcessMemoryMeters(new Cached(maxAge), tags);
    }

    /**
     * Registers the meters in {@code registry}.
     *
     * @param registry where the meters go
     * @throws NullPointerException if {@code registry} is null
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        for (String part : PARTS) {
            bytes(registry, "offheap.process.memory", "Resident bytes of one owner's part of the process's memory",
                    Tags.of("part", part).and(tags), s -> part(s, part));
        }
        bytes(registry, "offheap.process.rss", "The process's resident bytes", Tags.of(tags), s -> known(s.rss()));
        bytes(registry, "offheap.container.working.set", "The memory cgroup's usage less inactive file pages",
                Tags.of(tags), s -> known(s.containerWorkingSet()));
        bytes(registry, "offheap.container.limit", "The memory cgroup's limit", Tags.of(tags), s -> known(s.containerLimit()));
    }

    private void bytes(MeterRegistry registry, String name, String description, Tags meterTags,
            ToDoubleFunction<MemorySample> value) {
        Gauge.builder(name, samples, s -> value.applyAsDouble(s.get())).baseUnit(TaggedMeters.BYTES)
                .description(description).tags(meterTags).register(registry);
    }

    private static double part(MemorySample s, String key) {
        for (MemorySample.Part p : s.parts()) {
            if (p.key().equals(key)) {
                return p.bytes();
            }
        }
        return Double.NaN;
    }

    private static double known(long bytes) {
        return bytes < 0 ? Double.NaN : bytes;
    }

    /** The agent's recorder's last sample, or a sample at most {@code maxAge} old. */
    private static final class Cached implements Supplier<MemorySample> {
        private final long maxAgeNanos;
        private MemorySample last;
        private long takenAt;

        Cached(Duration maxAge) {
            this.maxAgeNanos = maxAge.toNanos();
        }

        @Override
        public synchronized MemorySample get() {
            MemoryRecorder agent = MemoryRecorder.agent();
            if (agent != null) {
                return agent.latest();
            }
            long now = System.nanoTime();
            if (last == null || now - takenAt > maxAgeNanos) {
                last = MemoryRecorder.sampleNow();
                takenAt = now;
            }
            return last;
        }
    }
}
