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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.account.MemoryBudget;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A chunk pool whose budget (or an ancestor) was closed refuses every new array with the budget's error, even
 * one its free chunks could serve without a charge, as the buffer pool refuses even a cached slot.
 */
class ClosedBudgetRefusesFreeChunksTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Layout.class)
    void anArrayOfFreeChunksIsRefusedOnceTheBudgetClosed(Layout layout) {
        MemoryBudget process = MemoryBudget.root("process", 1L << 30);
        MemoryBudget io = process.child("io", 256L << 20);
        ChunkPool pool = layout.builder("free-chunks", 64 << 10, 4, dir).budget(io).build();
        pool.longs(1000).release(); // a free chunk, still charged

        process.closeQuietly();

        assertThatThrownBy(() -> pool.longs(1000)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is closed because its ancestor 'process' is closed");
        assertThatCode(pool::close).doesNotThrowAnyException();
        assertThat(process.used()).isZero();
    }
}
