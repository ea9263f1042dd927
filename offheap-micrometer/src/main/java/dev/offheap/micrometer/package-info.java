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

/**
 * Micrometer meters for offheap, one {@link io.micrometer.core.instrument.binder.MeterBinder} per pool or
 * budget:
 *
 * {@snippet :
 * new BufferPoolMeters(pool).bindTo(registry);
 * new ChunkPoolMeters(store).bindTo(registry);
 * new MemoryBudgetMeters(budget).bindTo(registry);
 * }
 *
 * <p>Every meter is tagged {@code type} ({@code BufferPool}, {@code ChunkPool} or {@code MemoryBudget}) and
 * {@code name} (the pool's name, or the budget's path), plus any tags given to the binder. Byte figures have
 * the base unit {@code bytes}; a limit is a gauge only when there is one. Gauges hold their pool or budget
 * weakly, as Micrometer's do by default: they read NaN once it is gone. Reading them costs what reading the
 * JMX attributes costs (see {@link dev.offheap.metrics}): a buffer pool walks its slots at most once a
 * second.
 */
package dev.offheap.micrometer;
