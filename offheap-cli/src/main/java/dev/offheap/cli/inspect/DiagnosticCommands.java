package dev.offheap.cli.inspect;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.management.Descriptor;
import javax.management.JMException;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * The target's jcmd commands through the {@code com.sun.management:type=DiagnosticCommand} MBean. Each
 * operation carries its jcmd name in the descriptor field {@code dcmd.name} ({@code System.native_heap_info}
 * is the operation {@code systemNativeHeapInfo}), so commands are looked up by their jcmd names. A command
 * that takes no arguments is an operation without parameters; the others take one {@code String[]}.
 */
final class DiagnosticCommands {
    private static final String[] STRING_ARRAY = {String[].class.getName()};

    private final MBeanServerConnection server;
    private final ObjectName name;
    private final Map<String, MBeanOperationInfo> operations = new HashMap<>();

    DiagnosticCommands(MBeanServerConnection server) throws IOException {
        this.server = server;
        try {
            name = new ObjectName("com.sun.management:type=DiagnosticCommand");
            if (server.isRegistered(name)) {
                for (MBeanOperationInfo op : server.getMBeanInfo(name).getOperations()) {
                    Descriptor d = op.getDescriptor();
                    Object command = d == null ? null : d.getFieldValue("dcmd.name");
                    if (command != null && op.getSignature().length <= 1) {
                        operations.put(command.toString(), op);
                    }
                }
            }
        } catch (JMException e) {
            throw new IOException("cannot list the target's diagnostic commands: " + e.getMessage(), e);
        }
    }

    /** The command's output, or empty when the target does not have it (older JDK, other OS). */
    Optional<String> run(String command, String... arguments) throws IOException {
        MBeanOperationInfo operation = operations.get(command);
        if (operation == null) {
            return Optional.empty();
        }
        try {
            Object output = operation.getSignature().length == 0
                    ? server.invoke(name, operation.getName(), new Object[0], new String[0])
                    : server.invoke(name, operation.getName(), new Object[] {arguments}, STRING_ARRAY);
            return Optional.ofNullable((String) output);
        } catch (JMException e) {
            return Optional.of("Error: " + e.getMessage());
        }
    }
}
