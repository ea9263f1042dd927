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
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.offheap.account.MemoryBudget;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.SystemCallFaults;
import dev.offheap.os.SystemCallFaults.Call;
import java.lang.foreign.ValueLayout;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OS refusing memory ({@code mmap}, or {@code malloc} on the portable path) when a size class grows by a slab
 * or a dedicated lease is made: the acquire throws the {@link OutOfMemoryError}, naming the pool, and gives back
 * exactly what it took: the charge, the pool's figures (its peak included), its recorded addresses; nothing it
 * mapped stays mapped; the leases already out keep their data, and the same acquire succeeds afterwards.
 *
 * <p>The budget's own peak may count the charge made for a moment before the OS refused, as it does for any
 * charge given back.
 */
class FailedMapGivesBackTest {

    static Stream<Arguments> pools() {
        return Stream.of(false, true).flatMap(portable -> Stream.of(
                Arguments.of(Named.of(portable ? "portable" : "system", portable), Named.of("a new slab", 5000)),
                Arguments.of(Named.of(portable ? "portable" : "system", portable),
                        Named.of("a dedicated lease", 3 << 20))));
    }

    @ParameterizedTest(name = "{0} memory, {1}")
    @MethodSource("pools")
    void anAcquireTheOsRefusesGivesBackWhatItTook(boolean portable, int size) {
        MemoryBudget budget = MemoryBudget.root("refused", MemoryBudget.UNLIMITED);
        try (BufferPool pool = BufferPool.builder().name("refused-map").budget(budget).leakSampling(0)
                .useAfterReleaseSampling(0).maxLeaseSize(4 << 20).jmx(false)
                .nativeMemory(portable ? NativeMemory.portable() : NativeMemory.system()).build()) {
            BufferLease held = pool.acquire(1000);
            held.segment().fill((byte) 5);
            BufferLease dedicated = pool.acquire(2 << 20);
            BufferPoolStats before = pool.stats();
            long used = budget.used();
            long[] ranges = pool.addressRanges();

            Throwable failure;
            try (SystemCallFaults faults = SystemCallFaults.onThisThread()) {
                faults.failNth(Call.MMAP, 1, SystemCallFaults.ENOMEM);
                failure = catchThrowable(() -> pool.acquire(size));
                assertThat(faults.happened()).isTrue();
                for (long[] range : faults.mappedMeanwhile()) {
                    assertThat(SystemCallFaults.bytesMapped(range[0], range[1])).isZero();
                }
            }

            assertThat(failure).isInstanceOf(OutOfMemoryError.class)
                    .hasMessageContaining("of pool 'refused-map'");
            assertThat(pool.stats()).isEqualTo(before);
            assertThat(budget.used()).isEqualTo(used);
            assertThat(pool.addressRanges()).isEqualTo(ranges);
            assertThat(held.segment().get(ValueLayout.JAVA_BYTE, 999)).isEqualTo((byte) 5);
            BufferLease again = pool.acquire(size);
            assertThat(again.segment().byteSize()).isEqualTo(size);
            again.release();
            dedicated.release();
            held.release();
        }
        assertThat(budget.used()).isZero();
    }
}
