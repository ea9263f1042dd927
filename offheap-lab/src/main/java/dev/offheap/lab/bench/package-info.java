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
 * The JMH benchmarks behind the lab's micro experiments. They are started through JMH's API by the
 * experiments, never by hand; each {@code @Benchmark} method calls one allocator or reads one layout directly,
 * so every call site stays monomorphic even when several run in one JVM (the lab's tiny scale).
 */
package dev.offheap.lab.bench;
