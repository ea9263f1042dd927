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

package dev.offheap.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcAndCgroupTest {
    @TempDir
    Path dir;

    @Test
    void readsStatusFiguresInBytes() {
        Map<String, Long> s = ProcStatus.parse("Name:\tjava\nState:\tS (sleeping)\nVmRSS:\t  123456 kB\nRssAnon:\t   100 kB\n"
                + "Threads:\t42\nSigQ:\t0/95541\nbroken\n:\n");
        assertThat(s).containsEntry("VmRSS", 123456L * 1024).containsEntry("RssAnon", 102400L).containsEntry("Threads", 42L)
                .doesNotContainKeys("Name", "State", "SigQ");
    }

    @Test
    void version2TakesTheSmallestLimitOverTheHierarchyAndTheWorkingSetAsKubernetesDoes() throws IOException {
        Path fs = dir.resolve("sys-fs-cgroup");
        Path pod = fs.resolve("kubepods/pod1");
        Path container = pod.resolve("c1");
        Files.createDirectories(container);
        Files.writeString(fs.resolve("kubepods/memory.max"), "max\n");
        Files.writeString(pod.resolve("memory.max"), "1073741824\n");
        Files.writeString(container.resolve("memory.max"), "2147483648\n");
        Files.writeString(container.resolve("memory.current"), "500000000\n");
        Files.writeString(container.resolve("memory.stat"), "anon 1\ninactive_file_x 5\ninactive_file 100000000\nactive_file 3\n");
        Path procCgroup = write("cgroup", "0::/kubepods/pod1/c1\n");

        Cgroup c = Cgroup.locate(procCgroup, fs);
        assertThat(c.directory()).isEqualTo(container);
        assertThat(c.limit()).isEqualTo(1L << 30);
        assertThat(c.usage()).isEqualTo(500_000_000L);
        assertThat(c.workingSet(c.usage())).isEqualTo(400_000_000L);

        Files.writeString(pod.resolve("memory.max"), "max\n");
        Files.writeString(container.resolve("memory.max"), "max\n");
        assertThat(c.limit()).as("no limit anywhere").isEqualTo(-1);
    }

    @Test
    void insideAContainerTheMountRootIsTheCgroupWhenThePathIsTheHosts() throws IOException {
        Path fs = Files.createDirectories(dir.resolve("fs"));
        Files.writeString(fs.resolve("memory.current"), "1000\n");
        Files.writeString(fs.resolve("memory.max"), "4096\n");
        Cgroup c = Cgroup.locate(write("cgroup", "0::/system.slice/docker-abc.scope\n"), fs);
        assertThat(c.directory()).isEqualTo(fs);
        assertThat(c.limit()).isEqualTo(4096);
        assertThat(c.workingSet(c.usage())).as("no memory.stat: the usage").isEqualTo(1000);
    }

    @Test
    void version1ReadsTheHierarchicalLimitAndTreatsItsHugeNumberAsNone() throws IOException {
        Path fs = dir.resolve("fs");
        Path memory = Files.createDirectories(fs.resolve("memory/docker/abc"));
        Files.writeString(memory.resolve("memory.usage_in_bytes"), "300\n");
        Files.writeString(memory.resolve("memory.stat"), "cache 5\nhierarchical_memory_limit 1000\ntotal_inactive_file 100\n");
        Cgroup c = Cgroup.locate(write("cgroup", "12:pids:/docker/abc\n4:cpu,memory:/docker/abc\n0::/\n"), fs);
        assertThat(c.directory()).isEqualTo(memory);
        assertThat(c.limit()).isEqualTo(1000);
        assertThat(c.workingSet(c.usage())).isEqualTo(200);
        Files.writeString(memory.resolve("memory.stat"), "hierarchical_memory_limit 9223372036854771712\n");
        assertThat(c.limit()).isEqualTo(-1);
        assertThat(c.workingSet(300)).as("no inactive_file: the usage").isEqualTo(300);
    }

    @Test
    void noCgroupToReadIsNullAndASamplerWithoutProcStillSamplesTheJvm() throws IOException {
        assertThat(Cgroup.locate(dir.resolve("missing"), dir)).isNull();
        assertThat(Cgroup.locate(write("cgroup", "0::/nowhere\n"), dir.resolve("nofs"))).isNull();
        assertThat(Cgroup.locate(write("cgroup", "5:memory:../../etc\n"), dir.resolve("nofs"))).isNull();

        // the portable fallback: no /proc (not Linux), no cgroup file system
        SelfSampler sampler = new SelfSampler(dir.resolve("no-proc"), dir.resolve("no-cgroup"), -1);
        MemorySample s = sampler.sample();
        assertThat(s.rss()).isEqualTo(MemorySample.UNKNOWN);
        assertThat(s.containerLimit()).isEqualTo(MemorySample.UNKNOWN);
        assertThat(s.containerShare()).isEqualTo(-1);
        assertThat(s.heapResident()).as("committed stands in").isEqualTo(s.heapCommitted());
        assertThat(sampler.heapCounted()).isFalse();
        assertThat(s.parts()).extracting(MemorySample.Part::key).containsExactly("heap", "metaspace", "codeCache", "direct");
        assertThat(s.parts().get(0).bytes()).isEqualTo(s.heapCommitted());
        assertThat(s.threads()).isPositive();
    }

    @Test
    void aLimitGivenForAJvmNoCgroupBoundsIsASharesOfItsRss() {
        SelfSampler sampler = new SelfSampler(Path.of("/proc/self"), dir.resolve("no-cgroup"), 1L << 40);
        MemorySample s = sampler.sample();
        assertThat(s.containerLimit()).isEqualTo(1L << 40);
        assertThat(s.containerWorkingSet()).isEqualTo(s.rss()).isPositive();
        assertThat(s.containerShare()).isBetween(0.0, 0.01);
    }

    @Test
    void thisProcessesPartsAddUpToItsRssAndTheHeapIsCountedFromItsPages() {
        SelfSampler sampler = SelfSampler.ofThisProcess(-1);
        MemorySample s = sampler.sample();
        assertThat(s.rss()).isPositive();
        assertThat(s.parts().stream().mapToLong(MemorySample.Part::bytes).sum()).isEqualTo(s.rss());
        assertThat(s.parts()).allSatisfy(p -> assertThat(p.bytes()).as(p.key()).isNotNegative());
        assertThat(s.heapResident()).isBetween(1L, s.heapCommitted());
        assertThat(sampler.heapCounted()).as("the heap's range found in /proc/self/maps (G1)").isTrue();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void limitsOfZeroAndLinesThatOnlyStartWithTheKeyAreNotTaken() throws IOException {
        Path fs = dir.resolve("fs2");
        Path c = Files.createDirectories(fs.resolve("a"));
        Files.writeString(fs.resolve("memory.max"), "0\n");
        Files.writeString(c.resolve("memory.max"), "5000\n");
        Files.writeString(c.resolve("memory.current"), "100\n");
        Files.writeString(c.resolve("memory.stat"), "inactive_filex 7\ninactive_file\ninactive_file 150\n");
        Cgroup cg = Cgroup.locate(write("cg2", "0::/a\n"), fs);
        assertThat(cg.limit()).as("0 is no limit").isEqualTo(5000);
        assertThat(cg.workingSet(100)).as("inactive above usage: 0, not negative").isZero();
        assertThat(cg.workingSet(-1)).isEqualTo(-1);
        Files.writeString(c.resolve("memory.stat"), "inactive_file 40\n");
        assertThat(cg.workingSet(100)).isEqualTo(60);
        assertThat(cg.workingSet(40)).isZero();
        Files.writeString(c.resolve("memory.current"), "garbage\n");
        assertThat(cg.usage()).isEqualTo(-1);

        Path v1 = Files.createDirectories(dir.resolve("fs3/memory/d"));
        Files.writeString(v1.resolve("memory.usage_in_bytes"), "10\n");
        Files.writeString(v1.resolve("memory.stat"), "hierarchical_memory_limit 1152921504606846976\n");
        Cgroup one = Cgroup.locate(write("cg3", "3:memory:/d\n"), dir.resolve("fs3"));
        assertThat(one.limit()).as("2^60 is v1's none").isEqualTo(-1);
        Files.writeString(v1.resolve("memory.stat"), "hierarchical_memory_limit 1152921504606846975\n");
        assertThat(one.limit()).isEqualTo(1152921504606846975L);
        assertThat(Cgroup.locate(write("cg4", "3:cpu:/d\n"), dir.resolve("fs3"))).as("no memory controller").isNull();
    }
}
