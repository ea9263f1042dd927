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

import dev.offheap.account.MemoryBudget;
import dev.offheap.metrics.MappedArrayMXBean;

/** A mapped array's figures for JMX, read live; registered only while the array is open. */
final class MappedArrayMetrics implements MappedArrayMXBean {
    private final MappedArray array;

    MappedArrayMetrics(MappedArray array) {
        this.array = array;
    }

    @Override
    public String getPath() {
        return array.path().toString();
    }

    @Override
    public long getLength() {
        return array.length();
    }

    @Override
    public String getElementType() {
        return array.elementType().toString();
    }

    @Override
    public long getMappedBytes() {
        return array.mappedBytes();
    }

    @Override
    public long getViews() {
        return array.openViews();
    }

    @Override
    public boolean isReadOnly() {
        return array.mode() == MappedArray.Mode.READ_ONLY;
    }

    @Override
    public String getBudgetPath() {
        MemoryBudget budget = array.budget();
        return budget == null ? "" : budget.path();
    }
}
