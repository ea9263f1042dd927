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

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A client of HotSpot's attach mechanism on Linux in plain Java, doing what {@code jcmd} and the JDK's
 * {@code sun.tools.attach.VirtualMachineImpl} do, so that inspect can run diagnostic commands in a target without
 * loading anything into it.
 *
 * <p><b>Finding or starting the attach listener.</b> A JVM whose attach listener runs has a socket
 * {@code .java_pid<NSPID>} in its {@code /tmp}, reached as {@code /proc/PID/root/tmp} when that is writable (a
 * target in another mount namespace, a container), else as {@code /tmp}; NSPID is the pid the target sees in its
 * own pid namespace (the last field of {@code NSpid} in {@code /proc/PID/status}). Without the socket, the client
 * creates {@code .attach_pid<NSPID>} in the target's working directory ({@code /proc/PID/cwd}; in its {@code /tmp}
 * when that fails) and sends it SIGQUIT, but only when {@code SigCgt} shows that it catches SIGQUIT and
 * {@code SigIgn} that it does not ignore it, since SIGQUIT kills a process that does not. The JVM's signal handler
 * sees the file and starts the listener (a thread, "Attach Listener") instead of printing a thread dump. The client
 * waits for the socket with a timeout (10 s by default, as the JDK), sends SIGQUIT once more at half of it, and
 * deletes its file. The socket must belong to this user and group and be closed to others, as the JDK checks.
 *
 * <p>Before it signals, the client looks for {@code -XX:+DisableAttachMechanism} in the target's command line and
 * in {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS} and {@code _JAVA_OPTIONS} (the last setting wins): such a
 * JVM would answer SIGQUIT with a thread dump on its stdout (a safepoint) and never with a listener.
 *
 * <p><b>Protocol version 1</b>, which every HotSpot since JDK 6 speaks (JDK 25's version 2 is not needed): one
 * connection per command; the request is {@code "1\0<command>\0<arg0>\0<arg1>\0<arg2>\0"} (three arguments, empty
 * when unused; a diagnostic command is {@code "1\0jcmd\0<command line>\0\0\0"}); the reply is a status line (an
 * integer and a newline, 0 for success) and the command's output up to the end of the stream.
 *
 * <p>SIGQUIT is sent with libc's {@code kill} through the FFM API, which needs native access for the module
 * ({@code --enable-native-access=dev.offheap.cli}, as {@code ./offheap} passes).
 */
final class AttachClient {
    static final Duration ATTACH_TIMEOUT = Duration.ofSeconds(10);
    static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);
    private static final String DISABLE_ATTACH = "DisableAttachMechanism";
    private static final long SIGQUIT_MASK = 1L << 2; // bit (signal - 1) of the Sig* masks, SIGQUIT = 3
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    private final Path socket;
    private final Duration replyTimeout;

    private AttachClient(Path socket, Duration replyTimeout) {
        this.socket = socket;
        this.replyTimeout = replyTimeout;
    }

    /**
     * The reply to one command.
     *
     * @param status the status line: 0 for success; for {@code jcmd}, -1 when the command failed (its output then
     *     holds the exception)
     * @param output everything after the status line
     */
    record Reply(int status, String output) {}

    /** The target cannot be attached to, for the reason the message gives: retrying or hints would not help. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /** Finds the target's attach listener, or starts it; {@link IOException} when neither works in time. */
    static AttachClient attach(long pid) throws IOException {
        return attach(pid, ATTACH_TIMEOUT, REPLY_TIMEOUT);
    }

    static AttachClient attach(long pid, Duration timeout, Duration replyTimeout) throws IOException {
        Path proc = TargetProcess.proc(pid);
        String status = readStatus(proc);
        long nsPid = namespacePid(status, pid);
        Path tmp = Files.isWritable(proc.resolve("root/tmp")) ? proc.resolve("root/tmp") : Path.of("/tmp");
        Path socket = tmp.resolve(".java_pid" + nsPid);
        forgetIfDead(socket);
        if (!Files.exists(socket)) {
            refuseIfDisabled(proc);
            startListener(pid, proc, tmp, nsPid, socket, timeout);
        }
        checkPermissions(socket);
        return new AttachClient(socket, replyTimeout);
    }

    /** Runs a diagnostic command line ({@code "GC.heap_info"}, {@code "VM.native_memory summary"}). */
    Reply jcmd(String commandLine) throws IOException {
        return execute("jcmd", commandLine);
    }

    /** Runs an attach operation ({@code jcmd}, {@code agentProperties}...) with at most three arguments. */
    Reply execute(String command, String... arguments) throws IOException {
        byte[] reply = exchange(request(command, arguments), command + (arguments.length > 0 ? " " + arguments[0] : ""));
        int newline = indexOf(reply, (byte) '\n');
        String line = new String(reply, 0, newline < 0 ? reply.length : newline, StandardCharsets.UTF_8).strip();
        int code;
        try {
            code = Integer.parseInt(line);
        } catch (NumberFormatException e) {
            throw new IOException(line.isEmpty() ? "the target closed the connection without a reply"
                    : "the target's reply has no status: " + abbreviate(line));
        }
        String output = newline < 0 ? "" : new String(reply, newline + 1, reply.length - newline - 1, StandardCharsets.UTF_8);
        return new Reply(code, output);
    }

    /**
     * A version 1 request: version, command and always three arguments (empty when not given), each in UTF-8 and
     * ended by a NUL.
     */
    static byte[] request(String command, String... arguments) {
        if (arguments.length > 3) {
            throw new IllegalArgumentException("protocol version 1 takes three arguments at most");
        }
        List<String> parts = new ArrayList<>(List.of("1", command));
        for (int i = 0; i < 3; i++) {
            parts.add(i < arguments.length && arguments[i] != null ? arguments[i] : "");
        }
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        for (String part : parts) {
            if (part.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("a NUL character in an attach request");
            }
            request.writeBytes(part.getBytes(StandardCharsets.UTF_8));
            request.write(0);
        }
        return request.toByteArray();
    }

    private byte[] exchange(byte[] request, String what) throws IOException {
        long deadline = System.nanoTime() + replyTimeout.toNanos();
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                Selector selector = Selector.open()) {
            try {
                channel.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw new IOException("cannot connect to the attach listener at " + socket + ": " + e.getMessage(), e);
            }
            channel.configureBlocking(false);
            SelectionKey key = channel.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                await(selector, deadline, what);
                channel.write(out);
            }
            key.interestOps(SelectionKey.OP_READ);
            ByteArrayOutputStream reply = new ByteArrayOutputStream();
            ByteBuffer in = ByteBuffer.allocate(64 * 1024);
            while (true) {
                int n = channel.read(in.clear());
                if (n < 0) {
                    return reply.toByteArray();
                }
                if (n == 0) {
                    await(selector, deadline, what);
                } else {
                    reply.write(in.array(), 0, n);
                }
            }
        }
    }

    private void await(Selector selector, long deadline, String what) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0 || selector.select(Math.max(1, left / 1_000_000)) == 0 && System.nanoTime() >= deadline) {
            throw new IOException("no reply to '" + what + "' within " + replyTimeout.toSeconds() + " s");
        }
        selector.selectedKeys().clear();
    }

    /**
     * Deletes {@code socket} if nobody listens on it: a JVM killed while its listener ran leaves its socket file
     * behind, and a later process given the same pid (pids wrap, at 32,768 on many machines) would seem to have a
     * listener. A JVM's listener is bound and listening before its file appears (it is renamed into place), so a
     * refused connection means no listener. A file that cannot be deleted (another user's) is left for the
     * permission check to report.
     */
    private static void forgetIfDead(Path socket) {
        if (!Files.exists(socket)) {
            return;
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(socket)); // the listener reads no request and goes on
        } catch (java.net.ConnectException dead) {
            try {
                Files.deleteIfExists(socket);
            } catch (IOException notOurs) {
                // another user's file: checkPermissions says so
            }
        } catch (IOException other) {
            // not ours to judge (permissions, a path too long): the steps after report it
        }
    }

    // -- starting the listener

    private static void startListener(long pid, Path proc, Path tmp, long nsPid, Path socket, Duration timeout)
            throws IOException {
        Path trigger = createAttachFile(proc, tmp, nsPid);
        try {
            long start = System.nanoTime();
            long half = start + timeout.toNanos() / 2;
            long deadline = start + timeout.toNanos();
            boolean signalled = sendQuitIfCaught(pid, proc);
            boolean again = false;
            long delay = 2;
            while (!Files.exists(socket)) {
                if (!TargetProcess.isAlive(pid)) {
                    throw new NoSuchFileException("/proc/" + pid, null, "the process exited");
                }
                long now = System.nanoTime();
                if (now >= deadline) {
                    throw new IOException("it did not start its attach listener within " + timeout.toMillis() + " ms"
                            + (signalled ? " of SIGQUIT" : ""));
                }
                if (!again && now >= half) {
                    again = true;
                    if (!sendQuitIfCaught(pid, proc)) {
                        // (-Xrs JVMs catch no SIGQUIT, but start their listener with the JVM: their socket is there)
                        throw new Refused("it does not catch SIGQUIT (not a JVM, or one still starting): its attach"
                                + " listener cannot be started");
                    }
                    signalled = true;
                }
                sleep(delay);
                delay = Math.min(delay * 2, 100);
            }
        } finally {
            try {
                Files.deleteIfExists(trigger);
            } catch (IOException e) {
                // The target's directory went away with it, or became unwritable: nothing to clean up.
            }
        }
    }

    /**
     * Creates the file the target's SIGQUIT handler looks for: in its working directory, else in its temporary
     * directory (the JVM looks in both). A file left there by someone else is used as it is and removed after.
     */
    private static Path createAttachFile(Path proc, Path tmp, long nsPid) throws IOException {
        String name = ".attach_pid" + nsPid;
        IOException first;
        try {
            return create(proc.resolve("cwd").resolve(name));
        } catch (IOException e) {
            first = e;
        }
        try {
            return create(tmp.resolve(name));
        } catch (IOException e) {
            e.addSuppressed(first);
            throw new IOException("cannot create " + name + " in the target's working or temporary directory: "
                    + e.getMessage(), e);
        }
    }

    private static Path create(Path file) throws IOException {
        try {
            Files.createFile(file);
        } catch (FileAlreadyExistsException e) {
            // left over: the JVM only checks that it exists and is ours
        }
        return file;
    }

    /** Sends SIGQUIT if the target catches it and does not ignore it (blocked may be temporary, as the JDK says). */
    private static boolean sendQuitIfCaught(long pid, Path proc) throws IOException {
        String status = readStatus(proc);
        if (!catchesQuit(status)) {
            return false;
        }
        Signals.quit(pid);
        return true;
    }

    /** Whether a {@code /proc/PID/status} text shows SIGQUIT caught ({@code SigCgt}) and not ignored ({@code SigIgn}). */
    static boolean catchesQuit(String status) {
        Map<String, String> fields = fields(status);
        return (mask(fields.get("SigCgt")) & SIGQUIT_MASK) != 0 && (mask(fields.get("SigIgn")) & SIGQUIT_MASK) == 0;
    }

    private static long mask(String hex) {
        if (hex == null || hex.isEmpty()) {
            return 0;
        }
        // 64 signals in 16 hex digits, signal n in bit n - 1
        return Long.parseUnsignedLong(hex.length() > 16 ? hex.substring(hex.length() - 16) : hex, 16);
    }

    /** The pid the target sees in its own (innermost) pid namespace: the last {@code NSpid} field, else {@code pid}. */
    static long namespacePid(String status, long pid) {
        String nsPid = fields(status).get("NSpid");
        if (nsPid == null || nsPid.isBlank()) {
            return pid; // kernels before 4.1
        }
        String[] pids = nsPid.trim().split("\\s+");
        return Long.parseLong(pids[pids.length - 1]);
    }

    private static Map<String, String> fields(String status) {
        Map<String, String> fields = new java.util.HashMap<>();
        for (String line : status.split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    private static String readStatus(Path proc) throws IOException {
        try {
            return Files.readString(proc.resolve("status"));
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(proc.toString(), null, "the process exited");
        }
    }

    /** Refuses at once a target started with {@code -XX:+DisableAttachMechanism}: signalling it would only dump its threads. */
    private static void refuseIfDisabled(Path proc) throws Refused {
        List<String> options = new ArrayList<>();
        try {
            String environ = Files.readString(proc.resolve("environ"), StandardCharsets.ISO_8859_1);
            Map<String, String> env = environment(environ);
            options.addAll(words(env.get("JAVA_TOOL_OPTIONS")));
            options.addAll(words(env.get("JDK_JAVA_OPTIONS")));
            options.addAll(List.of(Files.readString(proc.resolve("cmdline"), StandardCharsets.ISO_8859_1).split("\0")));
            options.addAll(words(env.get("_JAVA_OPTIONS")));
        } catch (IOException | RuntimeException e) {
            return; // unreadable: the handshake decides
        }
        if (attachDisabled(options)) {
            throw new Refused("it runs with -XX:+" + DISABLE_ATTACH);
        }
    }

    /** Whether the last {@code -XX:[+-]DisableAttachMechanism} among the JVM's options in order is a plus. */
    static boolean attachDisabled(List<String> options) {
        boolean disabled = false;
        for (String option : options) {
            if (option.equals("-XX:+" + DISABLE_ATTACH)) {
                disabled = true;
            } else if (option.equals("-XX:-" + DISABLE_ATTACH)) {
                disabled = false;
            }
        }
        return disabled;
    }

    private static Map<String, String> environment(String environ) {
        Map<String, String> env = new java.util.HashMap<>();
        for (String entry : environ.split("\0")) {
            int equals = entry.indexOf('=');
            if (equals > 0) {
                env.put(entry.substring(0, equals), entry.substring(equals + 1));
            }
        }
        return env;
    }

    private static List<String> words(String value) {
        return value == null || value.isBlank() ? List.of() : List.of(value.trim().split("\\s+"));
    }

    /**
     * As the JDK: the socket must belong to this process's effective user and group (unless it runs as root) and
     * be neither readable nor writable by others, so that no other user's socket can pose as the target.
     */
    private static void checkPermissions(Path socket) throws IOException {
        Map<String, String> self = fields(Files.readString(Path.of("/proc/self/status")));
        long uid = Long.parseLong(self.get("Uid").split("\\s+")[1]);
        long gid = Long.parseLong(self.get("Gid").split("\\s+")[1]);
        Map<String, Object> attributes = Files.readAttributes(socket, "unix:uid,gid,permissions");
        long owner = ((Number) attributes.get("uid")).longValue();
        long group = ((Number) attributes.get("gid")).longValue();
        @SuppressWarnings("unchecked")
        Set<PosixFilePermission> permissions = (Set<PosixFilePermission>) attributes.get("permissions");
        if (uid != 0 && owner != uid) {
            throw new Refused(socket + " belongs to user " + owner + ", not to you (user " + uid + ")");
        }
        if (uid != 0 && group != gid) {
            throw new Refused(socket + " belongs to group " + group + ", not to your group " + gid);
        }
        if (permissions.stream().anyMatch(OTHERS::contains)) {
            throw new Refused(socket + " is open to other users (" + PosixFilePermissions.toString(permissions) + ")");
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for the attach listener", e);
        }
    }

    /** libc's {@code kill(2)} through the FFM API; linked on first use, so only when a listener must be started. */
    private static final class Signals {
        private static final int SIGQUIT = 3;
        private static final StructLayout STATE = Linker.Option.captureStateLayout();
        private static final VarHandle ERRNO = STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        private static final MethodHandle KILL = kill();

        private Signals() {}

        private static MethodHandle kill() {
            Linker linker = Linker.nativeLinker();
            MemorySegment kill = linker.defaultLookup().find("kill")
                    .orElseThrow(() -> new IllegalStateException("libc has no kill()"));
            return linker.downcallHandle(kill, FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT), Linker.Option.captureCallState("errno"));
        }

        static void quit(long pid) throws IOException {
            int result;
            int errno;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = arena.allocate(STATE);
                try {
                    result = (int) KILL.invokeExact(state, Math.toIntExact(pid), SIGQUIT);
                } catch (Throwable t) {
                    throw new IOException("cannot call kill(): " + t, t);
                }
                errno = (int) ERRNO.get(state, 0L);
            }
            if (result != 0) {
                throw switch (errno) {
                    case 1 -> new Refused("it may not be signalled by you (EPERM)");
                    case 3 -> new NoSuchFileException("/proc/" + pid, null, "the process exited");
                    default -> new IOException("kill(" + pid + ", SIGQUIT) failed, errno " + errno);
                };
            }
        }
    }
}
