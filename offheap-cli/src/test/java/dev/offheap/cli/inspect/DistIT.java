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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The self-contained image of {@code ./offheap dist} (tools/Dist.java), built once for the class from the packaged
 * CLI and unpacked from its .tar.gz as a user would: it inspects JDK 17 and 25 targets with no JDK on the PATH nor
 * JAVA_HOME, and (as root) with every JDK of the machine hidden by a mount namespace; from inside a target's pid
 * namespace ({@code kubectl debug --target}'s pattern) and from the host into it; and, as root, another user's JVM.
 * The tests that need root, unshare, nsenter or setpriv are skipped with the reason elsewhere.
 */
class DistIT {
    private static final Duration LIMIT = Duration.ofMinutes(2);
    /** Where the class builds, unpacks and starts its targets: under target/, readable by user nobody. */
    private static final Path WORK = Path.of(System.getProperty("offheap.cli.dir", "target"), "dist-it").toAbsolutePath();
    private static final Path UNSHARE = Path.of("/usr/bin/unshare");
    private static final Path NSENTER = Path.of("/usr/bin/nsenter");

    private static Path image;
    private static String version;

    @BeforeAll
    static void buildAndUnpack() throws Exception {
        deleteTree(WORK);
        Files.createDirectories(WORK);
        Files.setPosixFilePermissions(WORK, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cli = Path.of(System.getProperty("offheap.cli.dir", "target")).toAbsolutePath();
        Waits.Finished built = run(new ProcessBuilder(java25().toString(), Path.of("../tools/Dist.java").toString(),
                "--cli", cli.toString(), "--out", WORK.resolve("build").toString()), "tools/Dist.java");
        assertThat(built.exitCode()).as(built.output()).isZero();
        Path archive;
        try (Stream<Path> files = Files.list(WORK.resolve("build"))) {
            archive = files.filter(f -> f.getFileName().toString().endsWith("-linux-" + arch() + ".tar.gz")).findFirst()
                    .orElseThrow(() -> new AssertionError("no .tar.gz in " + WORK.resolve("build") + ":\n" + built.output()));
        }
        Path unpacked = Files.createDirectories(WORK.resolve("unpacked"));
        Waits.Finished tar = run(new ProcessBuilder("tar", "-xzf", archive.toString(), "-C", unpacked.toString()), "tar");
        assertThat(tar.exitCode()).as(tar.output()).isZero();
        try (Stream<Path> top = Files.list(unpacked)) {
            List<Path> dirs = top.toList();
            assertThat(dirs).as("the archive unpacks to one directory").hasSize(1);
            image = dirs.getFirst();
        }
        version = image.getFileName().toString().substring("offheap-".length());
        assertThat(archive.getFileName().toString()).isEqualTo("offheap-" + version + "-linux-" + arch() + ".tar.gz");
    }

    @Test
    void theImageHoldsItsLauncherTheApplicationsJarsAndOnlyTheJdkModulesItNeeds() throws Exception {
        assertThat(image.resolve("bin/offheap")).isExecutable();
        Path lib = Path.of(System.getProperty("offheap.cli.dir", "target"), "lib");
        TreeSet<String> expected = new TreeSet<>(List.of("offheap-cli.jar"));
        try (Stream<Path> jars = Files.list(lib)) {
            jars.map(j -> j.getFileName().toString()).filter(n -> n.endsWith(".jar")).forEach(expected::add);
        }
        try (Stream<Path> app = Files.list(image.resolve("lib/app"))) {
            assertThat(app.map(j -> j.getFileName().toString()).toList()).as("every jar of target/lib, and the CLI's")
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
        Waits.Finished modules = run(noJdk(image.resolve("bin/java").toString(), "--list-modules"), "--list-modules");
        assertThat(modules.output()).contains("java.base@", "jdk.attach@", "java.management.rmi@", "jdk.jfr@",
                "java.xml@").doesNotContain("java.desktop", "jdk.compiler", "jdk.jlink");
        assertThat(image.resolve("lib/server/classes.jsa")).as("the runtime's default CDS archive").isRegularFile();

        Waits.Finished help = run(noJdk(image.resolve("bin/offheap").toString(), "--version"), "bin/offheap --version");
        assertThat(help.output().strip()).isEqualTo("offheap " + version);
    }

    @Test
    void itIgnoresJavaHomeAndPathAndFollowsASymlinkToItself() throws Exception {
        Path links = Files.createDirectories(WORK.resolve("links"));
        Path link = links.resolve("offheap");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, image.resolve("bin/offheap"));
        Path jdk17 = AttachTargets.requireJava(17).getParent().getParent();
        // A JAVA_HOME and PATH whose java is a JDK 17, which cannot run the CLI's class files (Java 25)
        ProcessBuilder builder = noJdk(link.toString(), "--version");
        builder.environment().put("JAVA_HOME", jdk17.toString());
        builder.environment().put("PATH", jdk17.resolve("bin") + ":/usr/bin:/bin");
        Waits.Finished result = run(builder, "offheap --version through a symlink");

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output().strip()).isEqualTo("offheap " + version);
    }

    @Test
    void itInspectsJdk17And25TargetsWithNoJdkOnThePath() throws Exception {
        for (int feature : new int[] {17, 25}) {
            try (AttachTargets.Target target = AttachTargets.start(AttachTargets.requireJava(feature), targetDir())) {
                Map<String, Object> json = json(run(noJdk(offheap(), "inspect", Long.toString(target.pid()), "--json"),
                        "inspect --json"));
                assertSensible(json, target.pid(), feature);

                Waits.Finished text = run(noJdk(offheap(), "inspect", Long.toString(target.pid())), "inspect");
                assertThat(text.exitCode()).as(text.output()).isZero();
                assertThat(text.output()).startsWith("offheap inspect " + target.pid() + " (java)")
                        .contains("Resident memory (RSS)", "Where RSS goes", "Java heap").doesNotContain("Exception");
            }
        }
    }

    @Test
    void asRootItInspectsWithEveryJdkOfTheMachineHidden() throws Exception {
        assumeNamespaces();
        Path jvms = Path.of("/usr/lib/jvm");
        assumeThat(jvms).as("the JDKs in " + jvms).isDirectory();
        assumeThat(image.startsWith(jvms)).as("the image is outside " + jvms).isFalse();
        for (int feature : new int[] {17, 25}) {
            try (AttachTargets.Target target = AttachTargets.start(AttachTargets.requireJava(feature), targetDir())) {
                // a new mount namespace where /usr/lib/jvm is an empty tmpfs: no JDK, and /usr/bin/java a dead link
                ProcessBuilder hidden = noJdk(UNSHARE.toString(), "-m", "sh", "-c",
                        "mount -t tmpfs none /usr/lib/jvm && [ -z \"$(ls -A /usr/lib/jvm)\" ] && ! java -version 2>/dev/null"
                                + " && exec \"$0\" inspect \"$1\" --json", offheap(), Long.toString(target.pid()));
                assertSensible(json(run(hidden, "inspect with /usr/lib/jvm hidden")), target.pid(), feature);
            }
        }
    }

    /**
     * {@code kubectl debug --target}'s pattern: the inspector joins the target's pid namespace, with its mount
     * namespace or in one of its own (a debug container's, whose /tmp is not the target's); and the host's view.
     */
    @Test
    void asRootItInspectsFromInsideTheTargetsPidNamespaceAndFromTheHostIntoIt() throws Exception {
        assumeNamespaces();
        assumeThat(NSENTER).as("nsenter (util-linux)").isExecutable();
        // The JVM is pid 1 in a pid namespace with a /tmp of its own, as in a container: its attach socket
        // (/tmp/.java_pid1) is reached from the host through /proc/PID/root/tmp, and no other pid 1's is taken for it.
        // The test's own files (the image, the target's classes) stay visible in it even when the build is under /tmp:
        // the shell keeps the directory as its working directory, mounts the new /tmp, and binds it back in place
        // (--no-canonicalize: mount must not turn "." into a path, which would name the new, empty directory).
        List<String> container = List.of(UNSHARE.toString(), "-p", "-f", "--mount-proc", "--kill-child", "sh", "-c",
                "cd \"$0\" && mount -t tmpfs tmpfs /tmp && mkdir -p \"$0\" && mount --no-canonicalize --bind . \"$0\" && cd / && exec \"$@\"",
                WORK.toString());
        try (AttachTargets.Target namespace = AttachTargets.start(container, AttachTargets.requireJava(17), targetDir(),
                Map.of())) {
            ProcessHandle jvm = namespace.process().children().findFirst()
                    .orElseThrow(() -> new AssertionError("unshare has no child"));
            String status = Files.readString(Path.of("/proc", Long.toString(jvm.pid()), "status"));
            assertThat(AttachClient.namespacePid(status, jvm.pid())).as("the JVM is pid 1 in its namespace").isEqualTo(1);
            assertThat(Path.of("/tmp/.java_pid1")).as("no pid 1's attach socket in the host's /tmp").doesNotExist();
            try {
                Map<String, Object> inside = json(run(noJdk(NSENTER.toString(), "-t", Long.toString(jvm.pid()), "-p", "-m",
                        offheap(), "inspect", "1", "--json"), "nsenter ... inspect 1"));
                assertSensible(inside, 1, 17);

                // a debug container's view: the target's pid namespace, but a mount namespace (and /tmp) of its own
                Map<String, Object> beside = json(run(noJdk(NSENTER.toString(), "-t", Long.toString(jvm.pid()), "-p",
                        UNSHARE.toString(), "-m", "--mount-proc", offheap(), "inspect", "1", "--json"),
                        "nsenter -p unshare -m --mount-proc ... inspect 1"));
                assertSensible(beside, 1, 17);

                Map<String, Object> fromHost = json(run(noJdk(offheap(), "inspect", Long.toString(jvm.pid()), "--json"),
                        "inspect HOST_PID"));
                assertSensible(fromHost, jvm.pid(), 17);
                assertThat(TargetProcess.inRoot(jvm.pid(), "/tmp/.java_pid1")).as("its socket, in its own /tmp").exists();
            } finally {
                jvm.destroy(); // SIGTERM: it removes its attach socket; unshare then ends
            }
        }
    }

    /** HotSpot 11 and newer take root's attach requests from any user's JVM, as jcmd's do. */
    @Test
    void asRootItInspectsAnotherUsersJvm() throws Exception {
        AttachTargets.assumeRootAndNobody();
        for (int feature : new int[] {17, 25}) {
            try (AttachTargets.Target target = AttachTargets.start(AttachTargets.AS_NOBODY, AttachTargets.requireJava(feature),
                    targetDir(), Map.of())) {
                assertThat(Files.getAttribute(Path.of("/proc", Long.toString(target.pid())), "unix:uid")).isEqualTo(65534);
                assertSensible(json(run(noJdk(offheap(), "inspect", Long.toString(target.pid()), "--json"),
                        "inspect as root")), target.pid(), feature);
            }
        }
    }

    // -- helpers

    @SuppressWarnings("unchecked")
    private static void assertSensible(Map<String, Object> json, long pid, int feature) {
        assertThat(((Number) json.get("pid")).longValue()).isEqualTo(pid);
        assertThat((String) json.get("vm")).contains(" " + feature + ".");
        long rss = ((Number) json.get("rss")).longValue();
        assertThat(rss).as("RSS").isBetween(10L << 20, 2L << 30);
        assertThat(((Number) json.get("heap")).longValue()).as("resident heap").isPositive().isLessThan(rss);
        assertThat(((Number) json.get("malloc")).longValue()).as("malloc").isPositive().isLessThan(rss);
        Map<String, Object> details = (Map<String, Object>) json.get("details");
        assertThat(details).containsKeys("rss", "heap");
    }

    private static Map<String, Object> json(Waits.Finished result) {
        assertThat(result.exitCode()).as(result.output()).isZero();
        return MiniJson.object(result.output());
    }

    /** A command with an environment of PATH=/usr/bin:/bin alone: no JAVA_HOME, no JDK on the PATH. */
    private static ProcessBuilder noJdk(String... command) {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().clear();
        builder.environment().put("PATH", "/usr/bin:/bin");
        return builder;
    }

    private static Waits.Finished run(ProcessBuilder builder, String what) throws IOException, InterruptedException {
        return Waits.finish(builder.redirectErrorStream(true).start(), LIMIT, what);
    }

    private static String offheap() {
        return image.resolve("bin/offheap").toString();
    }

    /** The directory the targets are compiled in and run from: readable by user nobody. */
    private static Path targetDir() throws IOException {
        Path dir = WORK.resolve("targets");
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    private static void assumeRoot() throws IOException {
        assumeThat(Files.getAttribute(Path.of("/proc/self"), "unix:uid")).as("running as root (namespaces and other"
                + " users' processes need it)").isEqualTo(0);
    }

    /** Root, with unshare, allowed to make pid and mount namespaces (a container may forbid it). */
    private static void assumeNamespaces() throws IOException, InterruptedException {
        assumeRoot();
        assumeThat(UNSHARE).as("unshare (util-linux)").isExecutable();
        Waits.Finished probe = run(new ProcessBuilder(UNSHARE.toString(), "-p", "-f", "-m", "--mount-proc", "true"),
                "unshare -p -f -m --mount-proc true");
        assumeThat(probe.exitCode()).as("unshare may make pid and mount namespaces here: " + probe.output()).isZero();
    }

    private static Path java25() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    private static String arch() {
        String arch = System.getProperty("os.arch");
        return arch.equals("amd64") ? "x86_64" : arch;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
        }
        for (Path p : paths) {
            Files.delete(p);
        }
    }
}
