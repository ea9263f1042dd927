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

package dev.offheap.lab.experiment.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A server's memory some seconds after its load stopped, read while it idles (nothing trimmed or collected).
 *
 * @param seconds        seconds since the load stopped
 * @param rssKib         its {@code VmRSS} in KiB, -1 if unread
 * @param allocatorBytes the direct memory its allocator or pool holds (see
 *                       {@link AdminConsole.Reading#allocatorBytes()}), -1 if unknown
 */
public record IdleSample(int seconds, long rssKib, long allocatorBytes) {
    /** The raw figures for the JSON, in bytes. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        m.put("rssBytes", rssKib < 0 ? null : rssKib * 1024);
        m.put("allocatorBytes", allocatorBytes < 0 ? null : allocatorBytes);
        return m;
    }
}
