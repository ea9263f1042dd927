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
 * Binds offheap's pools and budgets to Micrometer: one {@code MeterBinder} each, with gauges for the
 * figures JMX shows, and the process's memory by owner as the recorder samples it. Optional: nothing in offheap
 * needs it.
 */
module dev.offheap.micrometer {
    requires transitive dev.offheap.core;
    requires transitive dev.offheap.recorder;
    requires transitive micrometer.core;

    exports dev.offheap.micrometer;
}
