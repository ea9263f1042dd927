package dev.offheap.cli.inspect;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;

/**
 * The JVM's own view of its memory, from its platform MXBeans: committed and used figures, not resident ones.
 *
 * @param vm the JVM's name and version
 * @param cpus processors the JVM sees
 * @param javaHome the target's {@code java.home}, to recognise its own files among the mappings
 * @param heapUsed bytes of live and not yet collected objects
 * @param heapCommitted bytes the heap holds from the OS
 * @param heapMax the heap's limit ({@code -Xmx}), or -1
 * @param metaspaceCommitted the {@code Metaspace} pool's committed bytes (class space included)
 * @param metaspaceUsed its used bytes
 * @param codeCacheCommitted committed bytes of the {@code CodeHeap} pools
 * @param threads live threads
 * @param maxDirectMemory {@code -XX:MaxDirectMemorySize}, 0 when not set (the limit is then the heap's max)
 * @param nmtMode {@code -XX:NativeMemoryTracking}: {@code off}, {@code summary} or {@code detail}
 */
record JvmAreas(String vm, int cpus, String javaHome, long heapUsed, long heapCommitted, long heapMax,
        long metaspaceCommitted, long metaspaceUsed, long codeCacheCommitted, int threads, long maxDirectMemory,
        String nmtMode) {

    boolean nmtEnabled() {
        return nmtMode.equals("summary") || nmtMode.equals("detail");
    }

    static JvmAreas read(MBeanServerConnection server) throws IOException {
        MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(server,
                ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
        RuntimeMXBean runtime = ManagementFactory.newPlatformMXBeanProxy(server,
                ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class);
        ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(server,
                ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        OperatingSystemMXBean os = ManagementFactory.newPlatformMXBeanProxy(server,
                ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME, OperatingSystemMXBean.class);
        MemoryUsage heap = memory.getHeapMemoryUsage();
        long metaCommitted = 0;
        long metaUsed = 0;
        long code = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getPlatformMXBeans(server, MemoryPoolMXBean.class)) {
            if (pool.getName().equals("Metaspace")) {
                metaCommitted = pool.getUsage().getCommitted();
                metaUsed = pool.getUsage().getUsed();
            } else if (pool.getName().startsWith("CodeHeap") || pool.getName().equals("CodeCache")) {
                code += pool.getUsage().getCommitted();
            }
        }
        String vm = runtime.getVmName() + " " + runtime.getVmVersion();
        String home = runtime.getSystemProperties().getOrDefault("java.home", "");
        return new JvmAreas(vm, os.getAvailableProcessors(), home, heap.getUsed(), heap.getCommitted(),
                heap.getMax(), metaCommitted, metaUsed, code, threads.getThreadCount(),
                parseLong(vmOption(server, "MaxDirectMemorySize"), 0), vmOption(server, "NativeMemoryTracking"));
    }

    private static long parseLong(String value, long otherwise) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }

    /** A HotSpot flag through {@code HotSpotDiagnosticMXBean.getVMOption}, or "" when the JVM has none. */
    private static String vmOption(MBeanServerConnection server, String option) throws IOException {
        try {
            ObjectName name = new ObjectName("com.sun.management:type=HotSpotDiagnostic");
            if (!server.isRegistered(name)) {
                return "";
            }
            CompositeData value = (CompositeData) server.invoke(name, "getVMOption", new Object[] {option},
                    new String[] {String.class.getName()});
            return String.valueOf(value.get("value"));
        } catch (JMException e) {
            return "";
        }
    }
}
