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

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.function.ToDoubleFunction;

/** Registers one binder's meters, all with the same tags: {@code type}, {@code name} and the caller's. */
final class TaggedMeters<T> {
    static final String BYTES = "bytes";

    private final MeterRegistry registry;
    private final T source;
    private final Tags tags;

    TaggedMeters(MeterRegistry registry, T source, String type, String name, Iterable<Tag> extra) {
        this.registry = registry;
        this.source = source;
        this.tags = Tags.of("type", type, "name", name).and(extra);
    }

    void bytes(String meter, String description, ToDoubleFunction<T> value) {
        Gauge.builder(meter, source, value).baseUnit(BYTES).description(description).tags(tags).register(registry);
    }

    void gauge(String meter, String description, ToDoubleFunction<T> value) {
        Gauge.builder(meter, source, value).description(description).tags(tags).register(registry);
    }

    void counter(String meter, String description, ToDoubleFunction<T> value) {
        FunctionCounter.builder(meter, source, value).description(description).tags(tags).register(registry);
    }
}
