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

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A connection to a running JVM, made without touching its command line: its attach listener (found, or started
 * with the SIGQUIT handshake, by {@link AttachClient}) runs diagnostic commands, which is all a default inspect
 * needs. JMX is opt-in: with {@code --jmx} the target's local management agent is started if it does not run
 * ({@code ManagementAgent.start_local}, as {@code VirtualMachine.startLocalManagementAgent()} does; it stays running),
 * and without it JMX is used only when the agent already runs, which costs the target nothing new. Whether it runs
 * is first seen from the thread the agent's RMI connector keeps ("RMI TCP Accept-", in {@code /proc/PID/task}), so
 * that a target without it is asked nothing; if there is one, the target's agent properties (the attach operation
 * {@code agentProperties}) give the connector's address.
 */
final class Connection implements AutoCloseable {
    /**
     * What starting the target's JMX agent and one look over it cost it (BENCHMARKS.md, "The cost of looking"): RSS,
     * MiB, on the first look; every further look leaves garbage in its young generation until a collection.
     */
    static final int JMX_AGENT_MIB = 30;
    /** Said wherever an attach fails: what the user can still see. */
    static final String NO_ATTACH_HINT = " (--no-attach shows what /proc alone tells)";

    static final String NO_JMX = "not read without JMX (--jmx starts the target's JMX agent: costs about "
            + JMX_AGENT_MIB + " MiB there)";
    private static final String ADDRESS = "com.sun.management.jmxremote.localConnectorAddress";

    /** How JMX was had, if at all. */
    enum Jmx {
        /** Not used: the agent did not run and {@code --jmx} was not given. */
        NONE,
        /** The target's agent was running already. */
        FOUND,
        /** Started by this inspect ({@code --jmx}); it stays running. */
        STARTED
    }

    /**
     * The name (cut to 15 characters, as the kernel keeps it) of the thread an offheap pool in the target runs
     * while it waits for the platform MBean server to register its MXBeans.
     */
    static final String OFFHEAP_JMX_THREAD = "offheap-jmx-wai";
    /** The longest the connection waits for those registrations: ten of that thread's looks. */
    static final long OFFHEAP_JMX_WAIT_MILLIS = 2500;

    private final long pid;
    private final DiagnosticCommands commands;
    private final JMXConnector connector;
    private final MBeanServerConnection server;
    private final Jmx jmx;

    private Connection(long pid, DiagnosticCommands commands, JMXConnector connector, Jmx jmx) throws IOException {
        this.pid = pid;
        this.commands = commands;
        this.connector = connector;
        this.server = connector == null ? null : connector.getMBeanServerConnection();
        this.jmx = jmx;
    }

    /** Attaches; with {@code startJmx}, starts the target's JMX agent when it does not run. */
    static Connection open(long pid, boolean startJmx) {
        AttachClient attach;
        DiagnosticCommands commands;
        try {
            attach = AttachClient.attach(pid);
            commands = new DiagnosticCommands(attach);
        } catch (AttachClient.Refused e) {
            throw failure(pid, "cannot attach to JVM " + pid + ": " + e.getMessage() + NO_ATTACH_HINT);
        } catch (IOException e) {
            throw failure(pid, "cannot attach to JVM " + pid + ": " + e.getMessage()
                    + ". It may run with -XX:+DisableAttachMechanism, as another user, or in another container"
                    + NO_ATTACH_HINT);
        }
        String address = null;
        Jmx jmx = Jmx.NONE;
        try {
            if (startJmx) {
                address = startLocalAgent(attach, commands);
                jmx = Jmx.STARTED;
            } else if (hasRmiThread(pid)) {
                address = agentAddress(attach).orElse(null);
                jmx = address == null ? Jmx.NONE : Jmx.FOUND;
            }
        } catch (IOException e) {
            throw failure(pid, "attached to JVM " + pid + " but cannot " + (startJmx ? "start" : "find")
                    + " its JMX agent: " + e.getMessage() + (startJmx ? " (it may lack the jdk.management.agent module)" : ""));
        }
        JMXConnector connector = null;
        if (address != null) {
            awaitOffheapRegistrations(pid);
            try {
                connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
            } catch (IOException e) {
                throw failure(pid, "attached to JVM " + pid + " but cannot connect to its management agent at "
                        + address + ": " + e.getMessage());
            }
        }
        try {
            return new Connection(pid, commands, connector, jmx);
        } catch (IOException e) {
            throw failure(pid, "attached to JVM " + pid + " but cannot use its management agent at " + address + ": "
                    + e.getMessage());
        }
    }

    /** {@code ManagementAgent.start_local} (a no-op when the agent runs), then the address it published. */
    private static String startLocalAgent(AttachClient attach, DiagnosticCommands commands) throws IOException {
        Optional<String> started = commands.run("ManagementAgent.start_local");
        if (started.isEmpty()) {
            throw new IOException("it has no ManagementAgent.start_local command");
        }
        if (started.get().startsWith("Error: ")) {
            throw new IOException(started.get().substring(7));
        }
        return agentAddress(attach).orElseThrow(() -> new IOException("its agent published no local address"));
    }

    /** The local JMX connector's address from the target's agent properties, if its agent runs. */
    private static Optional<String> agentAddress(AttachClient attach) throws IOException {
        AttachClient.Reply reply = attach.execute("agentProperties");
        if (reply.status() != 0) {
            throw new IOException("agentProperties failed: " + reply.output().strip());
        }
        Properties properties = new Properties();
        properties.load(new StringReader(reply.output()));
        return Optional.ofNullable(properties.getProperty(ADDRESS));
    }

    /**
     * Waits (up to {@link #OFFHEAP_JMX_WAIT_MILLIS}) while the target has offheap's thread that registers its pools
     * once the platform MBean server exists: the agent just made that server, and the pools show within a
     * quarter of a second, after which the thread ends. A target without offheap, or whose pools are registered
     * already, has no such thread: no wait.
     */
    private static void awaitOffheapRegistrations(long pid) {
        long deadline = System.nanoTime() + OFFHEAP_JMX_WAIT_MILLIS * 1_000_000L;
        while (hasThread(pid, OFFHEAP_JMX_THREAD) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether a thread of the target is named like the RMI connector's accept thread (names are cut at 15 chars). */
    static boolean hasRmiThread(long pid) {
        return hasThread(pid, "RMI TCP Accept");
    }

    /** Whether a thread of the target has a name that starts with {@code prefix} (names are cut at 15 chars). */
    private static boolean hasThread(long pid, String prefix) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TargetProcess.file(pid, "task"))) {
            for (Path task : tasks) {
                try {
                    if (Files.readString(task.resolve("comm")).startsWith(prefix)) {
                        return true;
                    }
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    private static InspectException failure(long pid, String message) {
        return TargetProcess.isAlive(pid) ? new InspectException(InspectException.ATTACH_FAILED, message)
                : InspectException.exited(pid);
    }

    long pid() {
        return pid;
    }

    DiagnosticCommands commands() {
        return commands;
    }

    /** The target's MBean server, when JMX is had ({@link #jmx()} is not NONE). */
    Optional<MBeanServerConnection> server() {
        return Optional.ofNullable(server);
    }

    Jmx jmx() {
        return jmx;
    }

    @Override
    public void close() {
        if (connector == null) {
            return;
        }
        try {
            connector.close();
        } catch (IOException | RuntimeException e) {
            // The target may be gone already; there is nothing left to release on this side.
        }
    }
}
