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

import dev.offheap.cli.inspect.Ceilings.Item;
import dev.offheap.cli.inspect.Ceilings.Settings;
import dev.offheap.cli.inspect.Ceilings.Usage;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM's ceilings from its flags (recorded {@code VM.flags -all}) and its figures now. */
class CeilingsTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    /** Seed 002's service: -Xmx4g and nothing else, a 2.5 GiB heap, malloc grown to 1.2 GiB. */
    static final Settings SEED = VmFlags.parse(CgroupFixtures.file("vmflags", "jdk25-Xmx4g.txt")).settings();
    static final Usage SEED_NOW = new Usage(2560 * MIB, 200 * MIB, 96 * MIB, 48 * MIB, 120, 40 * MIB, 1229 * MIB, 0, -1);

    /** A healthy service: -Xmx1g -XX:MaxDirectMemorySize=512m -XX:MaxMetaspaceSize=256m -Xss512k. */
    static final Settings HEALTHY = VmFlags.parse(CgroupFixtures.file("vmflags",
            "jdk17-Xmx1g-MaxDirect512m-MaxMetaspace256m-Xss512k.txt")).settings();
    static final Usage HEALTHY_NOW = new Usage(700 * MIB, 64 * MIB, 70 * MIB, 30 * MIB, 40, 12 * MIB, 150 * MIB, 0, -1);

    @Test
    void withoutMaxDirectMemorySizeDirectBuffersMayTakeAsMuchAsTheHeap() {
        Ceilings c = Ceilings.of(SEED, SEED_NOW);

        assertThat(c.items()).containsExactly(
                new Item("heap", "heap", 4 * GIB, "-Xmx (MaxHeapSize, command line)", true),
                new Item("directBuffers", "direct buffers", 4 * GIB,
                        "-XX:MaxDirectMemorySize not set, so the max heap (the JDK's default)", true),
                new Item("metaspace", "metaspace", 96 * MIB, "committed now, as -XX:MaxMetaspaceSize sets no limit", false),
                new Item("codeCache", "code cache", 251662336, "-XX:ReservedCodeCacheSize (ergonomic)", true),
                new Item("threadStacks", "thread stacks", 120 * MIB, "120 threads x 1.0 MiB, -Xss (ThreadStackSize,"
                        + " default)", true),
                new Item("malloc", "malloc", 1029 * MIB, "held now less the direct buffers' 200.0 MiB, as malloc has no"
                        + " ceiling", false));
        assertThat(c.sum()).isEqualTo(8 * GIB + 96 * MIB + 251662336 + 120 * MIB + 1029 * MIB);
    }

    @Test
    void everyCeilingSetCountsAsSet() {
        Ceilings c = Ceilings.of(HEALTHY, HEALTHY_NOW);

        assertThat(c.items()).containsExactly(
                new Item("heap", "heap", GIB, "-Xmx (MaxHeapSize, command line)", true),
                new Item("directBuffers", "direct buffers", 512 * MIB, "-XX:MaxDirectMemorySize (command line)", true),
                new Item("metaspace", "metaspace", 256 * MIB, "-XX:MaxMetaspaceSize (command line)", true),
                new Item("codeCache", "code cache", 240 * MIB, "-XX:ReservedCodeCacheSize (ergonomic)", true),
                new Item("threadStacks", "thread stacks", 20 * MIB, "40 threads x 512.0 KiB, -Xss (ThreadStackSize,"
                        + " command line)", true),
                new Item("malloc", "malloc", 86 * MIB, "held now less the direct buffers' 64.0 MiB, as malloc has no"
                        + " ceiling", false));
        assertThat(c.sum()).isEqualTo(GIB + 512 * MIB + 256 * MIB + 240 * MIB + 20 * MIB + 86 * MIB);
    }

    @Test
    void offheapCountsItsBudgetsLimitsWhenItHasThemElseWhatItHolds() {
        Usage limited = new Usage(0, 0, 0, 0, 0, 0, 0, 100 * MIB, 512 * MIB);
        Usage unlimited = new Usage(0, 0, 0, 0, 0, 0, 0, 100 * MIB, -1);
        Usage none = new Usage(0, 0, 0, 0, 0, 0, 0, 0, -1);

        assertThat(Ceilings.of(HEALTHY, limited).item("offheap")).isEqualTo(new Item("offheap", "offheap", 512 * MIB,
                "the limits of offheap's root budgets", true));
        assertThat(Ceilings.of(HEALTHY, unlimited).item("offheap")).isEqualTo(new Item("offheap", "offheap", 100 * MIB,
                "held now, as no offheap budget limits it", false));
        assertThat(Ceilings.of(HEALTHY, none).item("offheap")).isNull();
    }

    @Test
    void mallocUnknownIsNotCountedAndSaysSo() {
        Usage now = new Usage(0, 64 * MIB, 0, 0, 0, 0, -1, 0, -1);

        assertThat(Ceilings.of(HEALTHY, now).item("malloc")).isEqualTo(new Item("malloc", "malloc", 0,
                "unknown (no malloc statistics), so not counted", false));
    }

    @Test
    void mallocBelowTheDirectBuffersCountsAsNothingBeyondThem() {
        Usage now = new Usage(0, 64 * MIB, 0, 0, 0, 0, 10 * MIB, 0, -1);

        assertThat(Ceilings.of(HEALTHY, now).item("malloc").bytes()).isZero();
    }

    @Test
    void aThreadStackSizeOfZeroCountsTheStacksResidentNow() {
        Settings flags = new Settings(GIB, 0, -1, 240 * MIB, 0, Map.of());

        assertThat(Ceilings.of(flags, HEALTHY_NOW).item("threadStacks")).isEqualTo(new Item("threadStacks",
                "thread stacks", 12 * MIB, "resident now, as ThreadStackSize is 0 (the system's default size)", false));
    }

    @Test
    void flagsWithoutOriginsNameOnlyTheFlag() {
        Settings flags = new Settings(GIB, 256 * MIB, 128 * MIB, 240 * MIB, MIB, Map.of());
        Ceilings c = Ceilings.of(flags, HEALTHY_NOW);

        assertThat(c.item("heap").source()).isEqualTo("-Xmx (MaxHeapSize)");
        assertThat(c.item("directBuffers").source()).isEqualTo("-XX:MaxDirectMemorySize");
        assertThat(c.item("threadStacks").source()).isEqualTo("40 threads x 1.0 MiB, -Xss (ThreadStackSize)");
    }

    @Test
    void theTableSetsTheSumAgainstTheLimit() {
        Ceilings c = Ceilings.of(SEED, SEED_NOW);

        assertThat(c.tableLines(CgroupFixtures.memory("v2-k8s-limited"))).containsExactly(
                "JVM ceilings (or, where there is none, the size now)",
                "  heap               4.0 GiB  -Xmx (MaxHeapSize, command line)",
                "  direct buffers     4.0 GiB  -XX:MaxDirectMemorySize not set, so the max heap (the JDK's default)",
                "  metaspace         96.0 MiB  committed now, as -XX:MaxMetaspaceSize sets no limit",
                "  code cache       240.0 MiB  -XX:ReservedCodeCacheSize (ergonomic)",
                "  thread stacks    120.0 MiB  120 threads x 1.0 MiB, -Xss (ThreadStackSize, default)",
                "  malloc             1.0 GiB  held now less the direct buffers' 200.0 MiB, as malloc has no ceiling",
                "  sum                9.5 GiB  3.5 GiB above the limit 6.0 GiB (memory.max)");
        assertThat(Ceilings.of(HEALTHY, HEALTHY_NOW).tableLines(CgroupFixtures.memory("v2-container")).getLast())
                .isEqualTo("  sum                2.1 GiB  1.9 GiB below the limit 4.0 GiB (memory.max)");
        assertThat(c.tableLines(CgroupFixtures.memory("v2-unlimited")).getLast())
                .isEqualTo("  sum                9.5 GiB  no container limit to set it against");
    }

    @Test
    void theJsonHasEachPartInBytesAndTheSum() {
        Json json = new Json();
        Ceilings.of(HEALTHY, new Usage(0, 0, 0, 0, 2, 0, 0, 0, -1)).writeJson(json);

        assertThat(json.toString()).isEqualTo("{\"items\":["
                + "{\"key\":\"heap\",\"bytes\":1073741824,\"source\":\"-Xmx (MaxHeapSize, command line)\",\"kind\":\"limit\"},"
                + "{\"key\":\"directBuffers\",\"bytes\":536870912,\"source\":\"-XX:MaxDirectMemorySize (command line)\","
                + "\"kind\":\"limit\"},"
                + "{\"key\":\"metaspace\",\"bytes\":268435456,\"source\":\"-XX:MaxMetaspaceSize (command line)\","
                + "\"kind\":\"limit\"},"
                + "{\"key\":\"codeCache\",\"bytes\":251658240,\"source\":\"-XX:ReservedCodeCacheSize (ergonomic)\","
                + "\"kind\":\"limit\"},"
                + "{\"key\":\"threadStacks\",\"bytes\":1048576,\"source\":\"2 threads x 512.0 KiB, -Xss (ThreadStackSize,"
                + " command line)\",\"kind\":\"limit\"},"
                + "{\"key\":\"malloc\",\"bytes\":0,\"source\":\"held now less the direct buffers' 0 B, as malloc has no"
                + " ceiling\",\"kind\":\"now\"}],"
                + "\"sum\":2131755008}");
    }
}
