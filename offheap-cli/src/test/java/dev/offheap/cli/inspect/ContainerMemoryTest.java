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

import static dev.offheap.cli.inspect.CgroupFixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.cli.inspect.ContainerMemory.Figure;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * {@link ContainerMemory#parse} on recorded cgroup file systems (src/test/resources/cgroup, README.md there says
 * which were recorded on a machine and which were written from the kernel's documentation) and on hand-made ones.
 */
class ContainerMemoryTest {
    private static final String POD = "/kubepods.slice/kubepods-burstable.slice"
            + "/kubepods-burstable-pod5f0c2a7e_3b1d_4c8e_9a51_2f6d8e7c4b10.slice";
    private static final String K8S_CONTAINER = POD
            + "/cri-containerd-8c1f0e6d2b7a4c3e9f5d1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d.scope";
    private static final String DOCKER_ID = "3f9a1c7be2d84f0a9c6e5b4d3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f";

    @Nested
    class CgroupV1 {
        @Test
        void aLimitSetOnTheParentLimitsTheChildAndItsHitsAreCountedThere() {
            // Recorded: /offheap-rec has 300 MiB, /offheap-rec/app (the JVM's) none of its own.
            assertThat(memory("hybrid-v1-limited")).isEqualTo(new ContainerMemory(1, "hybrid", "/offheap-rec/app",
                    "/sys/fs/cgroup/memory/offheap-rec/app", true,
                    new Figure(314572800, "memory.limit_in_bytes of /offheap-rec"), null,
                    new Figure(273879040, "memory.usage_in_bytes"), new Figure(94150656, "total_rss in memory.stat"),
                    new Figure(178290688, "total_cache in memory.stat"),
                    new Figure(178257920, "total_shmem in memory.stat"),
                    new Figure(0, "total_inactive_file in memory.stat"), new Figure(1179648, "memory.kmem.usage_in_bytes"),
                    new Figure(0, "total_swap in memory.stat"), new Figure(1, "oom_kill in memory.oom_control"),
                    new Figure(27, "memory.failcnt of /offheap-rec")));
        }

        @Test
        void theWorkingSetIsUsageLessInactiveFileAndTheHeadroomLimitLessUsage() {
            ContainerMemory m = memory("hybrid-v1-limited");

            assertThat(m.workingSet()).isEqualTo(new Figure(273879040,
                    "memory.usage_in_bytes - total_inactive_file in memory.stat"));
            assertThat(m.headroom()).isEqualTo(new Figure(314572800 - 273879040, "limit - usage"));
        }

        @Test
        void noLimitAnywhereIsNoLimit() {
            // Recorded: every level holds 9223372036854771712, LONG_MAX rounded down to a page.
            ContainerMemory m = memory("hybrid-v1-unlimited");

            assertThat(m).isEqualTo(new ContainerMemory(1, "hybrid", "/session/shell",
                    "/sys/fs/cgroup/memory/session/shell", true, null, null, new Figure(6160384, "memory.usage_in_bytes"),
                    new Figure(2207744, "total_rss in memory.stat"), new Figure(1212416, "total_cache in memory.stat"),
                    new Figure(0, "total_shmem in memory.stat"), new Figure(774144, "total_inactive_file in memory.stat"),
                    new Figure(2068480, "memory.kmem.usage_in_bytes"), new Figure(0, "total_swap in memory.stat"),
                    new Figure(0, "oom_kill in memory.oom_control"), null));
            assertThat(m.headroom()).isNull();
            assertThat(m.workingSet().value()).isEqualTo(6160384 - 774144);
        }

        @Test
        void insideADockerContainerTheMountsRootIsTheContainersCgroup() {
            assertThat(memory("v1-docker-limited")).isEqualTo(new ContainerMemory(1, "legacy", "/docker/" + DOCKER_ID,
                    "/sys/fs/cgroup/memory", true, new Figure(6442450944L, "memory.limit_in_bytes"), null,
                    new Figure(6408925184L, "memory.usage_in_bytes"), new Figure(6102712320L, "total_rss in memory.stat"),
                    new Figure(298844160, "total_cache in memory.stat"), new Figure(0, "total_shmem in memory.stat"),
                    new Figure(201326592, "total_inactive_file in memory.stat"),
                    new Figure(7368704, "memory.kmem.usage_in_bytes"), new Figure(0, "total_swap in memory.stat"),
                    new Figure(0, "oom_kill in memory.oom_control"), new Figure(15234, "memory.failcnt")));
        }

        @Test
        void theKernelsHierarchicalLimitCountsWhenAnInvisibleAncestorSetsASmallerOne() {
            Map<String, String> files = new HashMap<>();
            files.put("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
            files.put("/sys/fs/cgroup/memory/memory.usage_in_bytes", "1048576\n");
            files.put("/sys/fs/cgroup/memory/memory.failcnt", "3\n");
            files.put("/sys/fs/cgroup/memory/memory.stat", "rss 1048576\nhierarchical_memory_limit 536870912\n");

            ContainerMemory m = ContainerMemory.parse("4:memory:/docker/abc\n",
                    "40 31 0:37 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n", "",
                    CgroupFixtures.source(files)).memory();

            assertThat(m.limit()).isEqualTo(new Figure(536870912, "hierarchical_memory_limit in memory.stat"));
            assertThat(m.anon()).isEqualTo(new Figure(1048576, "rss in memory.stat"));
            assertThat(m.limitHits()).as("memory.failcnt counts hits of this cgroup's own limit only").isNull();
        }
    }

    @Nested
    class CgroupV2 {
        @Test
        void aKubernetesContainerSeenFromItsNode() {
            assertThat(memory("v2-k8s-limited")).isEqualTo(new ContainerMemory(2, "unified", K8S_CONTAINER,
                    "/sys/fs/cgroup" + K8S_CONTAINER, true, new Figure(6442450944L, "memory.max"), null,
                    new Figure(6241124352L, "memory.current"), new Figure(5804916736L, "anon in memory.stat"),
                    new Figure(362807296, "file in memory.stat"), new Figure(1048576, "shmem in memory.stat"),
                    new Figure(118423552, "inactive_file in memory.stat"),
                    new Figure(71303168 + 2097152, "kernel + sock in memory.stat"), new Figure(0, "memory.swap.current"),
                    new Figure(2, "oom_kill in memory.events"), new Figure(1843, "max in memory.events")));
        }

        @Test
        void aDesktopSessionHasNoLimitAndAnOlderKernelNoKernelLine() {
            String session = "/user.slice/user-1000.slice/session-3.scope";

            assertThat(memory("v2-unlimited")).isEqualTo(new ContainerMemory(2, "unified", session,
                    "/sys/fs/cgroup" + session, true, null, null, new Figure(730857472, "memory.current"),
                    new Figure(512753664, "anon in memory.stat"), new Figure(199229440, "file in memory.stat"),
                    new Figure(3145728, "shmem in memory.stat"), new Figure(127926272, "inactive_file in memory.stat"),
                    new Figure(18874368, "kernel_stack + pagetables + percpu + slab + sock in memory.stat"),
                    new Figure(12582912, "memory.swap.current"), new Figure(0, "oom_kill in memory.events"), null));
        }

        @Test
        void insideAContainerWithItsOwnCgroupNamespaceTheAncestorsAreNotVisible() {
            assertThat(memory("v2-container")).isEqualTo(new ContainerMemory(2, "unified", "/", "/sys/fs/cgroup", false,
                    new Figure(4294967296L, "memory.max"), null, new Figure(1395154944, "memory.current"),
                    new Figure(1189085184, "anon in memory.stat"), new Figure(167772160, "file in memory.stat"),
                    new Figure(0, "shmem in memory.stat"), new Figure(83886080, "inactive_file in memory.stat"),
                    new Figure(37748736 + 548864, "kernel + sock in memory.stat"), new Figure(0, "memory.swap.current"),
                    new Figure(0, "oom_kill in memory.events"), new Figure(0, "max in memory.events")));
        }

        @Test
        void aContainerSeenFromTheHostThroughItsMountNamespace() {
            // The host reads /proc/PID/cgroup in its own cgroup namespace (the full path) and the target's
            // mountinfo, whose cgroup2 mount's root is the container's cgroup; files go through /proc/PID/root.
            Map<String, String> files = new HashMap<>();
            files.put("/proc/42/root/sys/fs/cgroup/memory.max", "1073741824\n");
            files.put("/proc/42/root/sys/fs/cgroup/memory.high", "943718400\n");
            files.put("/proc/42/root/sys/fs/cgroup/memory.current", "524288000\n");
            files.put("/proc/42/root/sys/fs/cgroup/memory.stat", "anon 500000000\nfile 24288000\ninactive_file 4288000\n");
            files.put("/proc/42/root/sys/fs/cgroup/memory.events", "low 0\nhigh 12\nmax 0\noom 0\noom_kill 0\n");

            ContainerMemory m = ContainerMemory.parse("0::/system.slice/docker-1a2b.scope\n",
                    "716 715 0:31 /system.slice/docker-1a2b.scope /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw\n",
                    "/proc/42/root", CgroupFixtures.source(files)).memory();

            assertThat(m.cgroup()).isEqualTo("/system.slice/docker-1a2b.scope");
            assertThat(m.directory()).isEqualTo("/proc/42/root/sys/fs/cgroup");
            assertThat(m.limit()).isEqualTo(new Figure(1073741824, "memory.max"));
            assertThat(m.high()).isEqualTo(new Figure(943718400, "memory.high"));
            assertThat(m.wholeHierarchy()).isFalse();
            assertThat(m.kernel()).isNull();
            assertThat(m.swap()).isNull();
            assertThat(m.workingSet()).isEqualTo(new Figure(520000000, "memory.current - inactive_file in memory.stat"));
        }

        @Test
        void theRootCgroupOfAnOlderKernelHasNoMemoryFilesButTheController() {
            Map<String, String> files = Map.of("/sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");

            ContainerMemory.Result r = ContainerMemory.parse("0::/\n",
                    "25 24 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", CgroupFixtures.source(files));

            assertThat(r.problem()).isNull();
            assertThat(r.memory().limit()).isNull();
            assertThat(r.memory().usage()).isNull();
            assertThat(r.memory().tableLines(null)).contains("  usage            unknown");
        }
    }

    @Nested
    class Problems {
        @Test
        void noMemoryControllerOnV2IsSaid() {
            Map<String, String> files = Map.of("/sys/fs/cgroup/cgroup.controllers", "cpu io pids\n");

            assertThat(ContainerMemory.parse("0::/app.slice/x.service\n",
                    "25 24 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", CgroupFixtures.source(files)).problem())
                    .isEqualTo("cgroup v2 at /sys/fs/cgroup/app.slice/x.service has no memory files: the memory"
                            + " controller is not enabled there (the root's cgroup.controllers: cpu io pids)");
        }

        @Test
        void filesThatMayNotBeReadAreSaid() {
            ContainerMemory.Source denied = path -> {
                throw new java.nio.file.AccessDeniedException(path);
            };

            assertThat(ContainerMemory.parse("0::/a\n", "9 8 0:31 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n",
                    "/proc/42/root", denied).problem()).isEqualTo("no permission to read"
                    + " /proc/42/root/sys/fs/cgroup/a/memory.stat (another user's process, or its /proc/PID/root needs"
                    + " the right to trace it)");
        }

        @Test
        void aCgroupOutsideTheReadersCgroupNamespaceIsSaid() {
            assertThat(ContainerMemory.parse("0::/../../system.slice/other.scope\n",
                    "9 8 0:31 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n", "", CgroupFixtures.source(Map.of())).problem())
                    .isEqualTo("the process's cgroup (/../../system.slice/other.scope) is outside this process's cgroup"
                            + " namespace; inspect it from the host or from its own container");
        }

        @Test
        void noMemoryLineAndNoV2LineIsSaid() {
            assertThat(ContainerMemory.parse("3:cpu:/\n", "", "", CgroupFixtures.source(Map.of())).problem())
                    .isEqualTo("the process is in no memory cgroup: /proc/PID/cgroup has no memory line and no cgroup v2"
                            + " line");
        }

        @Test
        void aMemoryCgroupOnNoMountIsSaid() {
            assertThat(ContainerMemory.parse("4:memory:/a\n0::/\n",
                    "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n", "",
                    CgroupFixtures.source(Map.of())).problem())
                    .isEqualTo("the process's memory cgroup (v1, /a) is on no cgroup mount of this mount namespace");
        }
    }

    @Nested
    class Parsing {
        @Test
        void maxAndPageRoundedLongMaxAreNoLimit() {
            assertThat(ContainerMemory.limitValue("max\n")).isNull();
            assertThat(ContainerMemory.limitValue("9223372036854771712\n")).as("4 KiB pages").isNull();
            assertThat(ContainerMemory.limitValue("9223372036854710272\n")).as("64 KiB pages").isNull();
            assertThat(ContainerMemory.limitValue("314572800\n")).isEqualTo(314572800L);
            assertThat(ContainerMemory.limitValue(Long.toString((1L << 62) - 1))).isEqualTo((1L << 62) - 1);
        }

        @Test
        void mountinfoEscapesAreUndone() {
            assertThat(ContainerMemory.Mount.parseAll(
                    "33 24 0:27 /a\\040b /sys/fs/cgroup\\011x rw shared:9 master:2 - cgroup2 cgroup2 rw,nsdelegate\n"))
                    .containsExactly(new ContainerMemory.Mount("/a b", "/sys/fs/cgroup\tx", "cgroup2",
                            java.util.List.of("rw", "nsdelegate")));
        }

        @Test
        void theMountWithTheLongestRootThatHoldsThePathIsChosen() {
            var all = ContainerMemory.Mount.parseAll("""
                    1 0 0:1 / /host/cgroup rw - cgroup2 cgroup2 rw
                    2 0 0:1 /kubepods /sys/fs/cgroup rw - cgroup2 cgroup2 rw
                    3 0 0:1 /other /mnt/other rw - cgroup2 cgroup2 rw
                    """);

            assertThat(ContainerMemory.Mount.choose(all, "/kubepods/pod1/c1").mountPoint()).isEqualTo("/sys/fs/cgroup");
            assertThat(ContainerMemory.Mount.choose(all, "/kubepodsX").mountPoint()).isEqualTo("/host/cgroup");
        }
    }

    @Nested
    class Output {
        @Test
        void theTableShowsEachFigureWithItsShareOfTheLimitAndItsSource() {
            assertThat(memory("hybrid-v1-limited").tableLines(null)).containsExactly(
                    "Container: cgroup v1 at /sys/fs/cgroup/memory/offheap-rec/app (hybrid: the memory controller is on"
                            + " v1, beside a cgroup2 mount without it)",
                    "  limit          300.0 MiB          memory.limit_in_bytes of /offheap-rec",
                    "  usage          261.2 MiB   87.1%  memory.usage_in_bytes",
                    "  working set    261.2 MiB   87.1%  memory.usage_in_bytes - total_inactive_file in memory.stat",
                    "  anon            89.8 MiB   29.9%  total_rss in memory.stat",
                    "  page cache     170.0 MiB   56.7%  total_cache in memory.stat",
                    "    shmem        170.0 MiB   56.7%  total_shmem in memory.stat",
                    "  kernel           1.1 MiB    0.4%  memory.kmem.usage_in_bytes",
                    "  swap                 0 B    0.0%  total_swap in memory.stat",
                    "  headroom        38.8 MiB   12.9%  limit - usage",
                    "  oom kills              1          oom_kill in memory.oom_control",
                    "  limit hits            27          memory.failcnt of /offheap-rec");
        }

        @Test
        void inWatchModeEachFigureHasItsChange() {
            ContainerMemory now = memory("hybrid-v1-limited");
            ContainerMemory before = new ContainerMemory(1, "hybrid", now.cgroup(), now.directory(), true, now.limit(),
                    null, new Figure(173879040, "memory.usage_in_bytes"), new Figure(94150656, "total_rss in memory.stat"),
                    new Figure(78290688, "total_cache in memory.stat"), new Figure(78257920, "total_shmem in memory.stat"),
                    new Figure(0, "total_inactive_file in memory.stat"), new Figure(1179648, "memory.kmem.usage_in_bytes"),
                    new Figure(0, "total_swap in memory.stat"), new Figure(0, "oom_kill in memory.oom_control"),
                    new Figure(20, "memory.failcnt of /offheap-rec"));

            assertThat(now.tableLines(before)).containsExactly(
                    "Container: cgroup v1 at /sys/fs/cgroup/memory/offheap-rec/app (hybrid: the memory controller is on"
                            + " v1, beside a cgroup2 mount without it)",
                    "  limit          300.0 MiB                       memory.limit_in_bytes of /offheap-rec",
                    "  usage          261.2 MiB   87.1%    +95.4 MiB  memory.usage_in_bytes",
                    "  working set    261.2 MiB   87.1%    +95.4 MiB  memory.usage_in_bytes - total_inactive_file in"
                            + " memory.stat",
                    "  anon            89.8 MiB   29.9%          0 B  total_rss in memory.stat",
                    "  page cache     170.0 MiB   56.7%    +95.4 MiB  total_cache in memory.stat",
                    "    shmem        170.0 MiB   56.7%    +95.4 MiB  total_shmem in memory.stat",
                    "  kernel           1.1 MiB    0.4%          0 B  memory.kmem.usage_in_bytes",
                    "  swap                 0 B    0.0%          0 B  total_swap in memory.stat",
                    "  headroom        38.8 MiB   12.9%    -95.4 MiB  limit - usage",
                    "  oom kills              1                   +1  oom_kill in memory.oom_control",
                    "  limit hits            27                   +7  memory.failcnt of /offheap-rec");
        }

        @Test
        void noLimitIsSaidPlainly() {
            assertThat(memory("v2-unlimited").tableLines(null)).contains(
                    "  limit        none: no memory limit on /user.slice/user-1000.slice/session-3.scope or any cgroup"
                            + " above it",
                    "  headroom     no limit");
        }

        @Test
        void noLimitWhereTheAncestorsAreNotVisibleIsSaidSo() {
            Map<String, String> files = Map.of("/sys/fs/cgroup/memory.max", "max\n", "/sys/fs/cgroup/memory.current",
                    "1000\n");

            ContainerMemory m = ContainerMemory.parse("0::/\n", "9 8 0:31 / /sys/fs/cgroup ro - cgroup2 cgroup rw\n",
                    "", CgroupFixtures.source(files)).memory();

            assertThat(m.tableLines(null)).contains("  limit        none visible: no memory limit on / (the cgroups above"
                    + " it are not visible here)");
        }

        @Test
        void theJsonHasEveryFigureInBytesAndNullForWhatIsUnknown() {
            Json json = new Json();
            ContainerMemory.writeJson(json, CgroupFixtures.parse("v2-unlimited"));

            assertThat(json.toString()).isEqualTo("{\"cgroupVersion\":2,\"hierarchy\":\"unified\",\"cgroup\":"
                    + "\"/user.slice/user-1000.slice/session-3.scope\",\"directory\":"
                    + "\"/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope\",\"limit\":null,\"limitSource\":null,"
                    + "\"high\":null,\"usage\":730857472,\"workingSet\":602931200,\"anon\":512753664,"
                    + "\"pageCache\":199229440,\"shmem\":3145728,\"inactiveFile\":127926272,\"kernel\":18874368,"
                    + "\"swap\":12582912,\"headroom\":null,\"oomKills\":0,\"limitHits\":null}");
        }

        @Test
        void theJsonOfALimitedCgroupHasTheLimitItsSourceAndTheHeadroom() {
            Json json = new Json();
            ContainerMemory.writeJson(json, CgroupFixtures.parse("hybrid-v1-limited"));

            assertThat(MiniJson.parse(json.toString())).isInstanceOf(Map.class);
            assertThat(json.toString()).contains("\"limit\":314572800,\"limitSource\":\"memory.limit_in_bytes of"
                    + " /offheap-rec\"", "\"headroom\":40693760", "\"oomKills\":1,\"limitHits\":27}");
        }

        @Test
        void aProblemIsTheOnlyField() {
            Json json = new Json();
            ContainerMemory.writeJson(json, ContainerMemory.Result.problem("cannot read /proc/7/cgroup: denied"));

            assertThat(json.toString()).isEqualTo("{\"problem\":\"cannot read /proc/7/cgroup: denied\"}");
        }
    }
}
