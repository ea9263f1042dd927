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

package dev.offheap.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.offheap.buffer.BufferLease;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import dev.offheap.store.DoubleArray;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

class OwnedMappingsTest {
    private static final long PAGE = NativeMemory.PAGE_SIZE;

    @Test
    void aRemovalInsideARangeKeepsBothEnds() {
        OwnedMappings.Owner owner = OwnedMappings.Owner.named("split");
        long base = 0x7000_0000_0000L;
        OwnedMappings.add(base, 10 * PAGE, owner);
        OwnedMappings.remove(base + 2 * PAGE, 3 * PAGE);
        assertThat(owner.ranges()).containsExactly(base, base + 2 * PAGE, base + 5 * PAGE, base + 10 * PAGE);
        OwnedMappings.remove(base, 10 * PAGE);
        assertThat(owner.ranges()).isEmpty();
    }

    @Test
    void aRemovalAcrossSeveralRangesTrimsTheOnesAtItsEdges() {
        OwnedMappings.Owner a = OwnedMappings.Owner.named("a");
        OwnedMappings.Owner b = OwnedMappings.Owner.named("b");
        long base = 0x7100_0000_0000L;
        OwnedMappings.add(base, 4 * PAGE, a);
        OwnedMappings.add(base + 4 * PAGE, 4 * PAGE, b);
        OwnedMappings.add(base + 8 * PAGE, 4 * PAGE, a);
        OwnedMappings.remove(base + 3 * PAGE, 6 * PAGE);
        assertThat(a.ranges()).containsExactly(base, base + 3 * PAGE, base + 9 * PAGE, base + 12 * PAGE);
        assertThat(b.ranges()).isEmpty();
        assertThat(OwnedMappings.ownerOf(base + 9 * PAGE)).isSameAs(a);
        assertThat(OwnedMappings.ownerOf(base + 5 * PAGE)).isNull();
        OwnedMappings.remove(base, 12 * PAGE);
    }

    @Test
    void aBlockIsRecordedWhileItLivesFromEitherSource() {
        for (NativeMemory source : new NativeMemory[] {NativeMemory.system(), NativeMemory.portable()}) {
            OwnedMappings.Owner owner = OwnedMappings.Owner.named(source.name());
            NativeRegion region = source.ownedBy(owner).allocate(3 * PAGE);
            long start = region.segment().address();
            assertThat(owner.ranges()).containsExactly(start, start + 3 * PAGE);
            region.close();
            assertThat(owner.ranges()).as(source.name()).isEmpty();
        }
    }

    @Test
    void aMovedBlockLeavesItsOldAddressesAndStaysItsOwnersInsideTheRange() {
        assumeTrue(NativeFile.isSupported(), "movable memory is Linux only");
        OwnedMappings.Owner owner = OwnedMappings.Owner.named("movable");
        long block = MovableMemory.allocate(4 * PAGE, owner);
        AddressRange range = AddressRange.reserve(8 * PAGE, owner);
        MovableMemory.moveInto(block, 4 * PAGE, range, 4 * PAGE);
        assertThat(OwnedMappings.ownerOf(block)).isNull();
        assertThat(owner.ranges()).containsExactly(range.address(), range.address() + 8 * PAGE);
        range.unmap();
        assertThat(owner.ranges()).isEmpty();
    }

    @Test
    void poolsPublishTheirAddressesThroughTheirMBeans() throws Exception {
        try (BufferPool pool = BufferPool.builder().name("owned-mappings-test").build();
             ChunkPool store = ChunkPool.builder().name("owned-mappings-store").build()) {
            BufferLease buffer = pool.acquire(64 * 1024);
            DoubleArray array = store.doubles(1 << 20);
            long[] poolRanges = (long[]) ManagementFactory.getPlatformMBeanServer().getAttribute(
                    new ObjectName("dev.offheap:type=BufferPool,name=owned-mappings-test"), "AddressRanges");
            long[] storeRanges = (long[]) ManagementFactory.getPlatformMBeanServer().getAttribute(
                    new ObjectName("dev.offheap:type=ChunkPool,name=owned-mappings-store"), "AddressRanges");
            assertThat(covers(poolRanges, buffer.segment().address())).isTrue();
            array.set(0, 1.0);
            assertThat(covers(storeRanges, array.contiguousSegment().orElseThrow().address())).isTrue();
            buffer.close();
            array.close();
        }
    }

    private static boolean covers(long[] pairs, long address) {
        for (int i = 0; i < pairs.length; i += 2) {
            if (address >= pairs[i] && address < pairs[i + 1]) {
                return true;
            }
        }
        return false;
    }
}
