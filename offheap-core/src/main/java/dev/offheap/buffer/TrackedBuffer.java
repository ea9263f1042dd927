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

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A dedicated lease chosen for leak detection: a new object in front of the real lease, watched by a phantom
 * reference (pooled leases carry their record themselves, see {@link PooledBuffer}). If it becomes
 * unreachable before its last release, {@link LeakDetector} reports where it was acquired and releases the
 * real lease, so the memory is not lost.
 */
final class TrackedBuffer extends Lease {
    private final Lease inner;
    private final LeakDetector.Record record;

    TrackedBuffer(Lease inner, LeakDetector detector) {
        this.inner = inner;
        this.record = detector.watch(this, inner.leasedSize(), () -> {
            inner.release();
            return true;
        });
        open();
    }

    @Override
    public MemorySegment segment() {
        checkLive("use");
        return inner.segment();
    }

    @Override
    public ByteBuffer byteBuffer() {
        checkLive("use");
        return inner.byteBuffer();
    }

    @Override
    public int size() {
        checkLive("ask the size of");
        return inner.size();
    }

    @Override
    int leasedSize() {
        return inner.leasedSize();
    }

    @Override
    String poolName() {
        return inner.poolName();
    }


    @Override
    void deallocate() {
        inner.release(); // first: if a view is held, nothing changed and the record still watches
        record.disarm();
        // Until the record is disarmed this lease must stay reachable, or the detector could see it as a
        // leak and release the inner lease a second time.
        java.lang.ref.Reference.reachabilityFence(this);
    }
}
