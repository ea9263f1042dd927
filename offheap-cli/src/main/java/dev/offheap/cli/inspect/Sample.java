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

package dev.offheap.cli.inspect;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything one look at the target found.
 *
 * @param pid the target
 * @param time when the look ended
 * @param memory resident memory by mapping
 * @param jvm the JVM's own figures
 * @param buffers the JDK's buffer pools; empty without JMX (they are not read then)
 * @param reports the diagnostic commands' reports
 * @param offheap offheap's MBeans in the target; empty without JMX (not read), an empty list when it has none
 * @param attribution RSS split into parts
 * @param container the target's memory cgroup, or why it could not be read
 * @param ceilings the JVM's configured ceilings, null when its flags could not be read
 * @param virtualThreads the virtual threads and their stacks in the heap; empty when not read (only
 *     {@code --virtual-threads} walks the heap for them)
 * @param nativeCallers native memory by Java call site over a window before the sample; empty unless
 *     {@code --native-callers} recorded it
 * @param nativeCaches the caches native libraries keep by design, as they say themselves ({@link NativeCaches})
 */
record Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
        NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution,
        ContainerMemory.Result container, Ceilings ceilings, Optional<VirtualThreads> virtualThreads,
        Optional<NativeCallers.Result> nativeCallers, List<NativeCaches.Cache> nativeCaches) {

    /** A sample without native caches (none found). */
    Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
            NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution,
            ContainerMemory.Result container, Ceilings ceilings, Optional<VirtualThreads> virtualThreads,
            Optional<NativeCallers.Result> nativeCallers) {
        this(pid, time, memory, jvm, buffers, reports, offheap, attribution, container, ceilings, virtualThreads,
                nativeCallers, List.of());
    }

    /** A sample without native callers (not recorded). */
    Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
            NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution,
            ContainerMemory.Result container, Ceilings ceilings, Optional<VirtualThreads> virtualThreads) {
        this(pid, time, memory, jvm, buffers, reports, offheap, attribution, container, ceilings, virtualThreads,
                Optional.empty());
    }

    /** A sample without virtual threads (not read). */
    Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
            NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution,
            ContainerMemory.Result container, Ceilings ceilings) {
        this(pid, time, memory, jvm, buffers, reports, offheap, attribution, container, ceilings, Optional.empty());
    }

    /** A sample without its container view. */
    Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
            NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution) {
        this(pid, time, memory, jvm, buffers, reports, offheap, attribution,
                new ContainerMemory.Result(null, "not read"), null);
    }

    /** The container's figures, or null when they could not be read. */
    ContainerMemory containerMemory() {
        return container == null ? null : container.memory();
    }

    long offheapBytes() {
        return attribution.part(PartName.OFFHEAP);
    }
}
