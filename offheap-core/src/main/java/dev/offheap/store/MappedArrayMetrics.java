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
