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

import dev.offheap.cli.inspect.ContainerMemory.Figure;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;

/** The limit over a hierarchy of any depth, and the figures worked out from usage, on v1 and v2. */
class ContainerMemoryProperties {
    private static final String V1_NO_LIMIT = "9223372036854771712";

    @Provide
    Arbitrary<List<Long>> limits() {
        // Each level's limit, the cgroup's first, then its parent's...; null: none ("max" or v1's huge value).
        return Arbitraries.longs().between(1, 1L << 40).injectNull(0.4).list().ofMinSize(1).ofMaxSize(6);
    }

    @Property
    void theLimitIsTheSmallestOfTheCgroupAndItsAncestorsAndNamesWhereItIsSet(@ForAll("limits") List<Long> limits,
            @ForAll boolean v2) {
        String mount = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
        String limitFile = v2 ? "memory.max" : "memory.limit_in_bytes";
        Map<String, String> files = new HashMap<>();
        int depth = limits.size();
        String path = "";
        for (int d = 1; d <= depth; d++) {
            path += "/l" + d;
            Long limit = limits.get(depth - d);
            files.put(mount + path + "/" + limitFile, limit == null ? (v2 ? "max\n" : V1_NO_LIMIT + "\n") : limit + "\n");
        }
        Long smallest = limits.stream().filter(l -> l != null).min(Long::compare).orElse(null);
        files.put(mount + path + (v2 ? "/memory.current" : "/memory.usage_in_bytes"), "4096\n");
        // v1's kernel works the hierarchical limit out itself: the same smallest value, or none.
        files.put(mount + path + "/memory.stat", v2 ? "anon 4096\n"
                : "rss 4096\nhierarchical_memory_limit " + (smallest == null ? V1_NO_LIMIT : smallest) + "\n");
        if (!v2) {
            files.put(mount + "/" + limitFile, V1_NO_LIMIT + "\n");
        }
        String cgroupLine = v2 ? "0::" + path : "4:memory:" + path;
        String mountLine = v2 ? "25 24 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw"
                : "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory";

        ContainerMemory m = ContainerMemory.parse(cgroupLine + "\n", mountLine + "\n", "",
                CgroupFixtures.source(files)).memory();

        assertThat(m.wholeHierarchy()).isTrue();
        if (smallest == null) {
            assertThat(m.limit()).isNull();
            return;
        }
        int at = limits.indexOf(smallest); // the nearest level that sets it
        String where = at == 0 ? "" : " of " + path.substring(0, path.length() - 3 * at);
        assertThat(m.limit()).isEqualTo(new Figure(smallest, limitFile + where));
    }

    @Property
    void theWorkingSetIsUsageLessInactiveFileNeverBelowZeroAndTheHeadroomLimitLessUsage(
            @ForAll @LongRange(min = 0, max = 1L << 40) long usage, @ForAll @LongRange(min = 0, max = 1L << 40) long inactive,
            @ForAll @LongRange(min = 1, max = 1L << 40) long limit) {
        ContainerMemory m = new ContainerMemory(2, "unified", "/a", "/sys/fs/cgroup/a", true, new Figure(limit, "memory.max"),
                null, new Figure(usage, "memory.current"), null, null, null, new Figure(inactive, "inactive_file"), null,
                null, null, null);

        assertThat(m.workingSet().value()).isEqualTo(Math.max(0, usage - inactive)).isBetween(0L, usage);
        assertThat(m.headroom().value()).isEqualTo(limit - usage);
    }
}
