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
 */
record Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, Optional<BufferPools> buffers,
        NativeReports reports, Optional<List<OffheapBean>> offheap, Attribution attribution) {

    long offheapBytes() {
        return attribution.part("offheap");
    }
}
