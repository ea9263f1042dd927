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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.os.NativeMemory;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * A release racing close can push a slot of a freed slab onto a closed class's free list (close drained the
 * list, then freed the slabs); a trim that passed its open check before close must not pop it
 * (PoolCloseRaceProperties once saw "free list of the 64-byte class holds slot 64 whose slab was freed").
 */
class TrimRacingCloseTest {

    @Test
    void aClosedClassIsNotTrimmedAndATrimThatRacedCloseReportsTheClosedPool() {
        BufferPool pool = BufferPool.builder().name("trim-racing-close").jmx(false).build();
        SlabSource slabs = new SlabSource(pool.name(), pool.budget().owner("the racing class"), NativeMemory.system());
        SizeClassPool sizeClass = new SizeClassPool(pool.name(), ByteOrder.BIG_ENDIAN, new SlotReturns(null), slabs, 0, 64, 4096,
                8, 1);
        Slot slot = sizeClass.takeUncached(0);

        sizeClass.close(slab -> false);
        sizeClass.give(slot, 0); // the racing release, after close drained the list and freed the slab

        assertThat(sizeClass.trim()).isEqualTo(-1);
        pool.close();
        assertThatThrownBy(pool::trim).isInstanceOf(IllegalStateException.class)
                .hasMessage("buffer pool 'trim-racing-close' is closed");
    }
}
