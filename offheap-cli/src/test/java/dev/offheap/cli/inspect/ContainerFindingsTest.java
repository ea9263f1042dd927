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
import static org.assertj.core.api.Assertions.tuple;

import dev.offheap.cli.inspect.Ceilings.Usage;
import dev.offheap.cli.inspect.ContainerMemory.Figure;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Each container finding fires with exactly this text on its pathological case and stays quiet just below its line
 * and on a healthy container (-Xmx1g, -XX:MaxDirectMemorySize=512m in 4 GiB).
 */
class ContainerFindingsTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;
    private static final String K8S_AT = "cgroup v2 at /sys/fs/cgroup/kubepods.slice/kubepods-burstable.slice"
            + "/kubepods-burstable-pod5f0c2a7e_3b1d_4c8e_9a51_2f6d8e7c4b10.slice"
            + "/cri-containerd-8c1f0e6d2b7a4c3e9f5d1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d.scope";
    private static final Ceilings SEED = Ceilings.of(CeilingsTest.SEED, CeilingsTest.SEED_NOW);
    private static final Ceilings HEALTHY = Ceilings.of(CeilingsTest.HEALTHY, CeilingsTest.HEALTHY_NOW);

    /** A v2 cgroup with these figures; anon is what usage leaves beside the page cache ({@code inactive} only). */
    private static ContainerMemory cgroup(long limit, long usage, long inactiveFile, long oomKills) {
        return new ContainerMemory(2, "unified", "/app.slice", "/sys/fs/cgroup/app.slice", true,
                limit < 0 ? null : new Figure(limit, "memory.max"), null, new Figure(usage, "memory.current"),
                new Figure(usage - inactiveFile, "anon in memory.stat"), new Figure(inactiveFile, "file in memory.stat"),
                new Figure(0, "shmem in memory.stat"), new Figure(inactiveFile, "inactive_file in memory.stat"), null,
                null, new Figure(oomKills, "oom_kill in memory.events"), null);
    }

    @Test
    void aHealthyContainerHasNoFinding() {
        assertThat(ContainerFindings.of(memory("v2-container"), HEALTHY, null, null, null)).isEmpty();
    }

    @Test
    void aHealthyContainerAfterAnotherSampleHasNoFinding() {
        assertThat(ContainerFindings.of(memory("v2-container"), HEALTHY, memory("v2-container"), HEALTHY,
                Duration.ofSeconds(5))).isEmpty();
    }

    @Test
    void eachFindingHasItsIdAndSeverity() {
        assertThat(ContainerFindings.of(memory("v2-k8s-limited"), SEED, null, null, null))
                .extracting(Finding::id, Finding::severity).containsExactly(
                        tuple("ceilings-above-container-limit", Finding.Severity.WARNING),
                        tuple("container-near-limit", Finding.Severity.CRITICAL));
        assertThat(ContainerFindings.of(cgroup(-1, GIB, 0, 3), HEALTHY, null, null, null))
                .extracting(Finding::id, Finding::severity)
                .containsExactly(tuple("container-oom-kills", Finding.Severity.CRITICAL));
    }

    @Test
    void noContainerFiguresNoFinding() {
        assertThat(ContainerFindings.of(null, SEED, null, null, null)).isEmpty();
    }

    @Nested
    class CeilingsAboveTheLimit {
        @Test
        void theSeedsServiceXmx4gWithUnlimitedDirectMemoryInSixGigabytes() {
            assertThat(ContainerFindings.ceilingsAboveLimit(memory("v2-k8s-limited"), SEED, null, null, null)).contains(
                    "The JVM's ceilings add up to 9.5 GiB, more than the container's memory limit of 6.0 GiB"
                            + " (memory.max, " + K8S_AT + "): heap 4.0 GiB: -Xmx (MaxHeapSize, command line); direct"
                            + " buffers 4.0 GiB: -XX:MaxDirectMemorySize not set, so the max heap (the JDK's default);"
                            + " metaspace 96.0 MiB: committed now, as -XX:MaxMetaspaceSize sets no limit; code cache"
                            + " 240.0 MiB: -XX:ReservedCodeCacheSize (ergonomic); thread stacks 120.0 MiB: 120 threads x"
                            + " 1.0 MiB, -Xss (ThreadStackSize, default); malloc 1.0 GiB: held now less the direct"
                            + " buffers' 200.0 MiB, as malloc has no ceiling. Headroom now 192.0 MiB (limit 6.0 GiB -"
                            + " usage 5.8 GiB, memory.current). The kernel OOM-kills the process when the cgroup's"
                            + " memory reaches the limit, whatever the JVM's own limits still allow (a JVM with -Xmx4g in"
                            + " a 6 GB container can be killed with a 2.5 GB heap). Make the ceilings fit: set"
                            + " -XX:MaxDirectMemorySize; bound malloc (MALLOC_ARENA_MAX=2, or jemalloc); lower -Xmx, or"
                            + " raise the limit.");
        }

        @Test
        void inWatchModeItNamesThePartThatGrewMostAndTheUsagesChange() {
            Usage now = CeilingsTest.SEED_NOW;
            Usage before = new Usage(now.heap() - 10 * MIB, now.directBuffers() - 20 * MIB, now.metaspace(),
                    now.codeCache(), now.threads(), now.threadStacks(), now.malloc() - 300 * MIB, 0, -1);
            ContainerMemory k8s = memory("v2-k8s-limited");
            ContainerMemory earlier = cgroup(k8s.limit().value(), k8s.usage().value() - 310 * MIB, 0, 0);

            assertThat(ContainerFindings.ceilingsAboveLimit(k8s, SEED, earlier, Ceilings.of(CeilingsTest.SEED, before),
                    Duration.ofSeconds(10)).orElseThrow()).contains("Headroom now 192.0 MiB (limit 6.0 GiB - usage 5.8"
                    + " GiB, memory.current). Since the previous sample 10 s ago malloc (less direct buffers) grew most:"
                    + " +280.0 MiB, usage +310.0 MiB (memory.current). The kernel OOM-kills");
        }

        @Test
        void inWatchModeWithNothingGrownItSaysSo() {
            assertThat(ContainerFindings.ceilingsAboveLimit(memory("v2-k8s-limited"), SEED, null, SEED,
                    Duration.ofSeconds(3)).orElseThrow()).contains(
                    "Since the previous sample 3 s ago no part grew. The kernel");
        }

        @Test
        void ceilingsThatAddUpToTheLimitExactlyAreQuietOneByteMoreFires() {
            long sum = SEED.sum();

            assertThat(ContainerFindings.ceilingsAboveLimit(cgroup(sum, GIB, 0, 0), SEED, null, null, null)).isEmpty();
            assertThat(ContainerFindings.ceilingsAboveLimit(cgroup(sum - 1, GIB, 0, 0), SEED, null, null, null))
                    .hasValueSatisfying(f -> assertThat(f).startsWith("The JVM's ceilings add up to 9.5 GiB, more than"
                            + " the container's memory limit of 9.5 GiB (memory.max, cgroup v2 at"
                            + " /sys/fs/cgroup/app.slice): "));
        }

        @Test
        void noLimitOrNoFlagsNoFinding() {
            assertThat(ContainerFindings.ceilingsAboveLimit(memory("v2-unlimited"), SEED, null, null, null)).isEmpty();
            assertThat(ContainerFindings.ceilingsAboveLimit(memory("v2-k8s-limited"), null, null, null, null)).isEmpty();
        }

        @Test
        void theRemediesAreOnlyThoseThatApply() {
            // Direct memory limited, malloc small: only the heap and the limit are left to change.
            Ceilings.Settings flags = new Ceilings.Settings(6 * GIB, 512 * MIB, 256 * MIB, 240 * MIB, MIB, Map.of());
            Ceilings c = Ceilings.of(flags, new Usage(GIB, 0, 0, 0, 10, 0, 40 * MIB, 0, -1));

            assertThat(ContainerFindings.ceilingsAboveLimit(cgroup(4 * GIB, GIB, 0, 0), c, null, null, null)
                    .orElseThrow()).endsWith("Make the ceilings fit: lower -Xmx, or raise the limit.");
        }

        @Test
        void withoutAUsageFigureThereIsNoHeadroom() {
            ContainerMemory root = new ContainerMemory(2, "unified", "/", "/sys/fs/cgroup", true,
                    new Figure(GIB, "memory.max"), null, null, null, null, null, null, null, null, null, null);

            assertThat(ContainerFindings.ceilingsAboveLimit(root, SEED, null, null, null).orElseThrow())
                    .contains("as malloc has no ceiling. No usage figure, so no headroom. The kernel");
        }
    }

    @Nested
    class NearTheLimit {
        @Test
        void aKubernetesContainerAt95PercentWithOomKills() {
            assertThat(ContainerFindings.nearLimit(memory("v2-k8s-limited"))).contains("The container is close to its"
                    + " memory limit: working set 5.7 GiB is 95.0 % of the 6.0 GiB limit (memory.max, " + K8S_AT + ")."
                    + " The working set is usage 5.8 GiB less inactive_file 112.9 MiB (memory.current - inactive_file in"
                    + " memory.stat), as Kubernetes counts it. Anon 5.4 GiB (anon in memory.stat) cannot be reclaimed"
                    + " without swap. Page cache 346.0 MiB (file in memory.stat) is 5.8 % of usage; the kernel can"
                    + " reclaim it before it OOM-kills, except 1.0 MiB of shared memory (shmem in memory.stat: tmpfs,"
                    + " /dev/shm), which it cannot reclaim without swap. Usage has reached the limit 1843 times (max in"
                    + " memory.events). The OOM killer has killed 2 processes in this cgroup (oom_kill in memory.events).");
        }

        @Test
        void aDockerContainerOnCgroupV1At96Percent() {
            assertThat(ContainerFindings.nearLimit(memory("v1-docker-limited"))).contains("The container is close to"
                    + " its memory limit: working set 5.8 GiB is 96.4 % of the 6.0 GiB limit (memory.limit_in_bytes,"
                    + " cgroup v1 at /sys/fs/cgroup/memory). The working set is usage 6.0 GiB less inactive_file 192.0"
                    + " MiB (memory.usage_in_bytes - total_inactive_file in memory.stat), as Kubernetes counts it. Anon"
                    + " 5.7 GiB (total_rss in memory.stat) cannot be reclaimed without swap. Page cache 285.0 MiB"
                    + " (total_cache in memory.stat) is 4.7 % of usage; the kernel can reclaim it before it OOM-kills."
                    + " Usage has reached the limit 15234 times (memory.failcnt).");
        }

        @Test
        void ninetyPercentIsQuietOneMebibyteMoreFires() {
            assertThat(ContainerFindings.nearLimit(cgroup(1000 * MIB, 900 * MIB, 0, 0))).isEmpty();
            assertThat(ContainerFindings.nearLimit(cgroup(1000 * MIB, 901 * MIB, 0, 0))).contains("The container is"
                    + " close to its memory limit: working set 901.0 MiB is 90.1 % of the 1000.0 MiB limit (memory.max,"
                    + " cgroup v2 at /sys/fs/cgroup/app.slice). The working set is usage 901.0 MiB less inactive_file 0 B"
                    + " (memory.current - inactive_file in memory.stat), as Kubernetes counts it. Anon 901.0 MiB (anon in"
                    + " memory.stat) cannot be reclaimed without swap. Page cache 0 B (file in memory.stat) is 0.0 % of"
                    + " usage; the kernel can reclaim it before it OOM-kills.");
        }

        @Test
        void usageNearTheLimitThatIsInactivePageCacheIsQuiet() {
            // 99 % used, but 40 % of it is inactive page cache the kernel drops first: the working set is at 59 %.
            assertThat(ContainerFindings.nearLimit(cgroup(1000 * MIB, 990 * MIB, 400 * MIB, 0))).isEmpty();
        }

        @Test
        void withoutInactiveFileTheUsageCounts() {
            ContainerMemory m = new ContainerMemory(2, "unified", "/a", "/sys/fs/cgroup/a", true,
                    new Figure(1000 * MIB, "memory.max"), null, new Figure(950 * MIB, "memory.current"), null, null, null,
                    null, null, null, null, null);

            assertThat(ContainerFindings.nearLimit(m)).contains("The container is close to its memory limit: usage"
                    + " 950.0 MiB is 95.0 % of the 1000.0 MiB limit (memory.max, cgroup v2 at /sys/fs/cgroup/a).");
        }

        @Test
        void oomKillsAreSaidEvenFarFromTheLimit() {
            // Recorded: a JVM pre-touching 400 MiB was killed in the 300 MiB cgroup before the recording.
            assertThat(ContainerFindings.nearLimit(memory("hybrid-v1-limited"))).contains("The OOM killer has killed 1"
                    + " process in this cgroup (oom_kill in memory.oom_control, cgroup v1 at"
                    + " /sys/fs/cgroup/memory/offheap-rec/app); its working set is 87.1 % of the 300.0 MiB limit now.");
        }

        @Test
        void oomKillsWithoutALimit() {
            assertThat(ContainerFindings.nearLimit(cgroup(-1, GIB, 0, 3))).contains("The OOM killer has killed 3"
                    + " processes in this cgroup (oom_kill in memory.events, cgroup v2 at /sys/fs/cgroup/app.slice).");
        }

        @Test
        void noLimitAndNoKillsIsQuiet() {
            assertThat(ContainerFindings.nearLimit(memory("v2-unlimited"))).isEmpty();
            assertThat(ContainerFindings.nearLimit(memory("hybrid-v1-unlimited"))).isEmpty();
        }
    }
}
