package dev.offheap.cli.inspect;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JMX connection to a running JVM, made without touching its command line: the Attach API starts the
 * target's local management agent (as {@code jcmd PID ManagementAgent.start_local} does) and returns its
 * address.
 */
final class Connection implements AutoCloseable {
    private final long pid;
    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private Connection(long pid, JMXConnector connector) throws IOException {
        this.pid = pid;
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static Connection open(long pid) {
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException | IOException e) {
            throw failure(pid, "cannot attach to JVM " + pid + ": " + e.getMessage()
                    + ". It may run with -XX:+DisableAttachMechanism, as another user, in another container, or"
                    + " without the jdk.management.agent module");
        }
        try {
            return new Connection(pid, JMXConnectorFactory.connect(new JMXServiceURL(address)));
        } catch (IOException e) {
            throw failure(pid, "attached to JVM " + pid + " but cannot connect to its management agent at "
                    + address + ": " + e.getMessage());
        }
    }

    private static InspectException failure(long pid, String message) {
        return TargetProcess.isAlive(pid) ? new InspectException(InspectException.ATTACH_FAILED, message)
                : InspectException.exited(pid);
    }

    long pid() {
        return pid;
    }

    MBeanServerConnection server() {
        return server;
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException | RuntimeException e) {
            // The target may be gone already; there is nothing left to release on this side.
        }
    }
}
