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
 * offheap's JFR events (names in {@link dev.offheap.metrics.OffheapEvents}). Each has a static {@code emit}
 * that does nothing unless a recording wants the event ({@code shouldCommit()}); callers go through
 * {@link dev.offheap.metrics.jfr.JfrEvents}, which makes no event (and so loads no event class, nor JFR's own
 * 120 classes) until the Flight Recorder runs, and only on slow paths: memory taken from or given back to the
 * OS, a trim, a refused charge, a leak.
 */
package dev.offheap.metrics.jfr;
