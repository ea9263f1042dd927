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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.BudgetExceededException;
import dev.offheap.account.MemoryBudget;
import dev.offheap.os.SmallTmpfs;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A mapped array's views charge its budget, count against the mapping limit and show in JMX. */
class MappedArrayAccountingTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final AtomicInteger UNIQUE = new AtomicInteger();

    @TempDir
    Path dir;

    @Test
    void eachViewChargesItsMappedPagesUntilItIsReleased() throws IOException {
        MemoryBudget budget = MemoryBudget.root(unique("files"), 1 << 20);
        MappedArray.Options options = MappedArray.Options.defaults().budget(budget).jmx(false);
        try (MappedArray array = MappedArray.create(dir.resolve("a.npy"), ElementType.DOUBLE, 1000, options)) {
            assertThat(budget.used()).as("creating maps nothing").isZero();
            DoubleArray first = array.doubles();
            assertThat(budget.used()).as("8000 bytes are two pages").isEqualTo(8192);
            DoubleArray second = array.doubles();
            assertThat(budget.used()).isEqualTo(2 * 8192);
            assertThat(array.mappedBytes()).isEqualTo(2 * 8192);
            assertThat(budget.report().owners()).singleElement()
                    .satisfies(owner -> assertThat(owner.name()).contains(array.path().toString()));
            first.close();
            assertThat(budget.used()).isEqualTo(8192);
            array.grow(100_000);
            try (DoubleArray grown = array.doubles()) {
                assertThat(grown.length()).isEqualTo(100_000);
                assertThat(budget.used()).isEqualTo(8192 + 802_816);
            }
            assertThat(budget.used()).isEqualTo(8192);
            second.retain();
        }
        assertThat(budget.used()).as("close gives every view's charge back").isZero();
        assertThat(budget.report().owners()).isEmpty();
        budget.close();
    }

    @Test
    void aRefusedBudgetLeavesNothingMappedOrCharged() throws IOException {
        MemoryBudget budget = MemoryBudget.root(unique("small"), 3 * 4096);
        MappingBudget mappings = new MappingBudget("test arrays", "none", 100);
        MappedArray.Options options = MappedArray.Options.defaults().budget(budget).jmx(false).mappings(mappings);
        Path file = dir.resolve("big.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1024, options)) {
            LongArray kept = array.longs();
            assertThatThrownBy(array::longs).isInstanceOf(BudgetExceededException.class)
                    .hasMessageContaining(budget.path());
            assertThat(budget.used()).isEqualTo(8192);
            assertThat(array.openViews()).isEqualTo(1);
            assertThat(mappings.used()).isEqualTo(1);
            kept.close();
            assertThat(mappings.used()).isZero();
            array.longs().close();
        }
        assertThat(budget.used()).isZero();
        budget.close();
    }

    @Test
    void viewsBeyondTheMappingLimitAreRefusedWithTheLimitAndTheFile() throws IOException {
        MemoryBudget budget = MemoryBudget.unlimited(unique("mapped"));
        MappingBudget mappings = new MappingBudget("the mapped arrays of this JVM", "release views", 3);
        MappedArray.Options options = MappedArray.Options.defaults().budget(budget).jmx(false).mappings(mappings);
        Path file = dir.resolve("many.npy");
        List<IntArray> views = new ArrayList<>();
        try (MappedArray array = MappedArray.create(file, ElementType.INT, 100, options)) {
            for (int i = 0; i < 3; i++) {
                views.add(array.ints());
            }
            assertThatThrownBy(array::ints).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot map " + file)
                    .hasMessageContaining("needs 1 more memory mappings but holds 3 of the 3")
                    .hasMessageContaining("vm.max_map_count");
            assertThat(array.openViews()).isEqualTo(3);
            assertThat(budget.used()).as("the refused view's charge is given back").isEqualTo(3 * 4096);
            views.removeFirst().close();
            views.add(array.ints());
        }
        assertThat(mappings.used()).isZero();
        assertThat(budget.used()).isZero();
    }

    @Test
    void theMappingLimitIsHalfOfMaxMapCount() {
        assertThat(MapCount.limitForStores()).isEqualTo(MapCount.maxMapCount() / 2);
    }

    @Test
    void anArrayShowsInJmxUntilItCloses() throws IOException, JMException {
        MemoryBudget budget = MemoryBudget.unlimited(unique("shown"));
        String name = unique("prices");
        Path file = dir.resolve("prices.npy");
        ObjectName bean = new ObjectName("dev.offheap:type=MappedArray,name=" + name);
        ObjectName budgetBean = new ObjectName("dev.offheap:type=MemoryBudget,name=" + budget.path());
        try (MappedArray array = MappedArray.create(file, ElementType.FLOAT, 5000,
                MappedArray.Options.defaults().budget(budget).name(name))) {
            assertThat(SERVER.isRegistered(bean)).isTrue();
            assertThat(SERVER.isRegistered(budgetBean)).as("its budget shows while it is open").isTrue();
            assertThat(SERVER.getAttribute(bean, "Path")).isEqualTo(file.toString());
            assertThat(SERVER.getAttribute(bean, "Length")).isEqualTo(5000L);
            assertThat(SERVER.getAttribute(bean, "ElementType")).isEqualTo("float32");
            assertThat(SERVER.getAttribute(bean, "ReadOnly")).isEqualTo(false);
            assertThat(SERVER.getAttribute(bean, "BudgetPath")).isEqualTo(budget.path());
            assertThat(SERVER.getAttribute(bean, "Views")).isEqualTo(0L);
            try (FloatArray floats = array.floats()) {
                assertThat(floats.length()).isEqualTo(5000);
                assertThat(SERVER.getAttribute(bean, "Views")).isEqualTo(1L);
                assertThat(SERVER.getAttribute(bean, "MappedBytes")).isEqualTo(20_480L);
            }
            array.grow(6000);
            assertThat(SERVER.getAttribute(bean, "Length")).as("read live").isEqualTo(6000L);
            assertThat(SERVER.getAttribute(bean, "MappedBytes")).isEqualTo(0L);
        }
        assertThat(SERVER.isRegistered(bean)).isFalse();
        assertThat(SERVER.isRegistered(budgetBean)).isFalse();
        MappedArray reopened = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
        ObjectName byFileName = new ObjectName("dev.offheap:type=MappedArray,name=prices.npy");
        assertThat(SERVER.isRegistered(byFileName)).as("named after the file by default").isTrue();
        assertThat(SERVER.getAttribute(byFileName, "ReadOnly")).isEqualTo(true);
        assertThat(SERVER.getAttribute(byFileName, "BudgetPath")).isEqualTo("");
        reopened.close();
        assertThat(SERVER.isRegistered(byFileName)).isFalse();
        try (MappedArray unregistered = MappedArray.open(file, MappedArray.Mode.READ_ONLY,
                MappedArray.Options.defaults().jmx(false).name(name))) {
            assertThat(unregistered.length()).isEqualTo(6000);
            assertThat(SERVER.queryNames(new ObjectName("dev.offheap:type=MappedArray,*"), null))
                    .noneMatch(n -> n.getKeyProperty("name").startsWith(name));
        }
    }

    @Test
    void aFullDiskLeavesNoFileNoChargeAndNoMBean() throws Exception {
        MemoryBudget budget = MemoryBudget.unlimited(unique("disk"));
        String name = unique("full");
        try (SmallTmpfs disk = SmallTmpfs.mountOrSkip(dir.resolve("small"), 1 << 20)) {
            Path tooBig = disk.directory().resolve("too-big.npy");
            MappedArray.Options options = MappedArray.Options.defaults().budget(budget).name(name);
            assertThatThrownBy(() -> MappedArray.create(tooBig, ElementType.DOUBLE, 1 << 18, options))
                    .isInstanceOf(IOException.class).hasMessageContaining(tooBig.toString());
            assertThat(tooBig).doesNotExist();
            assertThat(budget.used()).isZero();
            assertThat(budget.report().owners()).isEmpty();
            assertThat(SERVER.queryNames(new ObjectName("dev.offheap:type=MappedArray,*"), null))
                    .noneMatch(n -> n.getKeyProperty("name").startsWith(name));

            Path file = disk.directory().resolve("grows.npy");
            try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1000, options)) {
                assertThatThrownBy(() -> array.grow(1 << 18)).isInstanceOf(IOException.class);
                assertThat(budget.used()).isZero();
                assertThat(array.openViews()).isZero();
            }
        }
        budget.close();
    }

    private static String unique(String name) {
        return name + "-accounting-" + UNIQUE.incrementAndGet();
    }
}
