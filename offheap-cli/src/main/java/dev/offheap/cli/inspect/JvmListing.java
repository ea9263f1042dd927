package dev.offheap.cli.inspect;

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The JVMs of this user that can be attached to, as the Attach API finds them (through their
 * {@code hsperfdata} files: a JVM started with {@code -XX:-UsePerfData} is missing here, but can still be
 * inspected by PID).
 */
final class JvmListing {
    private JvmListing() {}

    /**
     * One JVM.
     *
     * @param pid its process
     * @param rss its resident bytes, -1 if unknown
     * @param name its main class or jar and arguments, as the Attach API shows them
     */
    record Jvm(long pid, long rss, String name) {}

    static List<Jvm> list() {
        long self = ProcessHandle.current().pid();
        List<Jvm> jvms = new ArrayList<>();
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            long pid;
            try {
                pid = Long.parseLong(d.id());
            } catch (NumberFormatException e) {
                continue;
            }
            if (pid != self && TargetProcess.isAlive(pid)) {
                jvms.add(new Jvm(pid, TargetProcess.rss(pid), d.displayName()));
            }
        }
        jvms.sort(Comparator.comparingLong(Jvm::pid));
        return jvms;
    }
}
