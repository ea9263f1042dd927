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
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.cli.inspect.ContainerMemory.Figure;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ContainerMemory#read} on the machine's real cgroups: this JVM's own, and a limited one the test makes
 * (where this user may make cgroups: root, or a delegated v2 subtree), with a process in it that puts a known amount
 * of shared memory in the cgroup.
 */
class ContainerMemoryLiveTest {
    private static final long MIB = 1L << 20;

    @Test
    void readsThisJvmsOwnCgroupWhereItRuns() throws IOException {
        Path self = Path.of("/proc/self/cgroup");
        assumeTrue(Files.exists(self), "no /proc/self/cgroup: not Linux");
        List<String> lines = Files.readAllLines(self);
        String line = lines.stream().filter(l -> l.matches("\\d+:([^:]*,)?memory(,[^:]*)?:.*")).findFirst()
                .orElseGet(() -> lines.stream().filter(l -> l.startsWith("0::")).findFirst().orElseThrow());

        ContainerMemory.Result r = ContainerMemory.read(ProcessHandle.current().pid());

        assertThat(r.problem()).isNull();
        ContainerMemory m = r.memory();
        assertThat(m.version()).isEqualTo(line.startsWith("0::") ? 2 : 1);
        assertThat(Path.of(m.directory())).isDirectory();
        if (m.usage() != null) {
            assertThat(m.usage().value()).as("this JVM's memory is charged to its cgroup").isPositive();
            assertThat(m.workingSet().value()).isBetween(0L, m.usage().value());
        }
        assertThat(m.tableLines(null).getFirst()).startsWith("Container: cgroup v" + m.version() + " at ");
    }

    @Test
    void aCgroupLimitedByItsParentWithAProcessInIt() throws Exception {
        Cgroups here = Cgroups.find();
        assumeTrue(here.problem == null, () -> "cannot make a memory cgroup here: " + here.problem);
        assumeTrue(Files.isDirectory(Path.of("/dev/shm")), "no /dev/shm to put shared memory in");
        long pid = ProcessHandle.current().pid();
        Path parent = here.mount.resolve("offheap-live-" + pid);
        Path app = parent.resolve("app");
        Path shm = Path.of("/dev/shm/offheap-live-" + pid);
        Process p = null;
        try {
            try {
                Files.createDirectory(parent);
            } catch (IOException e) {
                assumeTrue(false, "cannot make a memory cgroup here: mkdir " + parent + ": " + e);
            }
            if (here.version == 2) {
                // The parent hands the memory controller to its child (it has no process of its own).
                Files.writeString(parent.resolve("cgroup.subtree_control"), "+memory");
            }
            Files.createDirectory(app);
            Files.writeString(parent.resolve(here.limitFile), Long.toString(256 * MIB));
            // The shell joins the cgroup first, so the 32 MiB it writes to /dev/shm are charged to it.
            p = new ProcessBuilder("sh", "-c", "echo $$ > " + app.resolve("cgroup.procs") + " && head -c "
                    + 32 * MIB + " /dev/zero > " + shm + " && echo ready && exec sleep 120").redirectErrorStream(true)
                    .start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");

            ContainerMemory.Result r = ContainerMemory.read(p.pid());

            assertThat(r.problem()).isNull();
            ContainerMemory m = r.memory();
            String name = "/offheap-live-" + pid;
            assertThat(m.cgroup()).isEqualTo(name + "/app");
            assertThat(m.directory()).isEqualTo(app.toString());
            assertThat(m.limit()).isEqualTo(new Figure(256 * MIB, here.limitFile + " of " + name));
            assertThat(m.usage().value()).isBetween(32 * MIB, 256 * MIB);
            assertThat(m.shmem().value()).isGreaterThanOrEqualTo(32 * MIB);
            assertThat(m.pageCache().value()).isGreaterThanOrEqualTo(m.shmem().value());
            assertThat(m.headroom().value()).isEqualTo(256 * MIB - m.usage().value());
            assertThat(m.oomKills().value()).isZero();
            assertThat(m.tableLines(null)).contains(String.format("  limit          256.0 MiB          %s of %s",
                    here.limitFile, name));
            assertThat(ContainerFindings.nearLimit(m)).as("32 MiB of 256 MiB is far from the limit").isEmpty();
        } finally {
            Files.deleteIfExists(shm);
            if (p != null) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
            removeWhenEmpty(app);
            removeWhenEmpty(parent);
        }
    }

    /** rmdir, retried for a moment: the kernel lets a cgroup go once its last process is reaped. */
    private static void removeWhenEmpty(Path cgroup) throws InterruptedException {
        for (int i = 0; i < 50 && Files.exists(cgroup); i++) {
            try {
                Files.delete(cgroup);
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
    }

    /** Where this user can make a memory cgroup: the memory hierarchy's root, or why not. */
    private record Cgroups(Path mount, int version, String limitFile, String problem) {
        static Cgroups find() throws IOException {
            if (!Files.exists(Path.of("/proc/self/cgroup"))) {
                return new Cgroups(null, 0, null, "no /proc/self/cgroup: not Linux");
            }
            List<String> cgroup = Files.readAllLines(Path.of("/proc/self/cgroup"));
            List<ContainerMemory.Mount> mounts = ContainerMemory.Mount.parseAll(
                    Files.readString(Path.of("/proc/self/mountinfo")));
            boolean v1 = cgroup.stream().anyMatch(l -> l.matches("\\d+:([^:]*,)?memory(,[^:]*)?:.*"));
            Optional<ContainerMemory.Mount> mount = mounts.stream().filter(m -> v1
                    ? m.fsType().equals("cgroup") && m.superOptions().contains("memory")
                    : m.fsType().equals("cgroup2")).filter(m -> m.root().equals("/")).findFirst();
            if (mount.isEmpty()) {
                return new Cgroups(null, 0, null, "no " + (v1 ? "cgroup v1 memory" : "cgroup2")
                        + " mount of the hierarchy's root in /proc/self/mountinfo");
            }
            Path root = Path.of(mount.get().mountPoint());
            if (!v1) {
                Path control = root.resolve("cgroup.subtree_control");
                String delegated = Files.exists(control) ? Files.readString(control).strip() : "";
                if (!List.of(delegated.split(" ")).contains("memory")) {
                    return new Cgroups(null, 0, null, "the root cgroup at " + root + " does not hand the memory"
                            + " controller to its children (cgroup.subtree_control: '" + delegated + "')");
                }
            }
            if (!Files.isWritable(root)) {
                return new Cgroups(null, 0, null, root + " is not writable by this user (cgroup delegation needs root"
                        + " or a delegated subtree)");
            }
            return v1 ? new Cgroups(root, 1, "memory.limit_in_bytes", null) : new Cgroups(root, 2, "memory.max", null);
        }
    }
}
