package dev.offheap.cli.inspect;

import java.time.Instant;
import java.util.List;

/**
 * Everything one look at the target found.
 *
 * @param pid the target
 * @param time when the look ended
 * @param memory resident memory by mapping
 * @param jvm the JVM's own figures
 * @param buffers the JDK's buffer pools
 * @param reports the diagnostic commands' reports
 * @param offheap offheap's MBeans in the target
 * @param attribution RSS split into parts
 */
record Sample(long pid, Instant time, ProcessMemory memory, JvmAreas jvm, BufferPools buffers, NativeReports reports,
        List<OffheapBean> offheap, Attribution attribution) {

    long offheapBytes() {
        return attribution.part("offheap");
    }
}
