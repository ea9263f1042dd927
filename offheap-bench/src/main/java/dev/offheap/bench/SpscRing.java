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

package dev.offheap.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A bounded single-producer single-consumer ring of references. {@link #offer(Object)} and {@link #poll()}
 * never block: they return false or null when the ring is full or empty, and the caller decides how to wait.
 * The producer publishes a slot with a release store of its index and the consumer reads it after an acquire
 * load; each side caches the other's index and re-reads it only when the cached value says full or empty.
 * The two indices live on separate cache lines (padding by inheritance, whose field order the JVM keeps).
 * A polled slot is cleared, so the ring holds no reference to a buffer it has handed on.
 */
final class SpscRing extends SpscRingPad2 {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(SpscRingHead.class, "head", long.class);
            TAIL = lookup.findVarHandle(SpscRingTail.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final int mask;

    /** @param capacity a power of two */
    SpscRing(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + capacity);
        }
        this.slots = new Object[capacity];
        this.mask = capacity - 1;
    }

    /** Producer side: adds {@code e} (not null), or returns false if the ring is full. */
    boolean offer(Object e) {
        long t = tail;
        if (t - headCache > mask) {
            headCache = (long) HEAD.getAcquire(this);
            if (t - headCache > mask) {
                return false;
            }
        }
        slots[(int) t & mask] = e;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /** Consumer side: takes the oldest element, or returns null if the ring is empty. */
    Object poll() {
        long h = head;
        if (h >= tailCache) {
            tailCache = (long) TAIL.getAcquire(this);
            if (h >= tailCache) {
                return null;
            }
        }
        int i = (int) h & mask;
        Object e = slots[i];
        slots[i] = null;
        HEAD.setRelease(this, h + 1);
        return e;
    }
}

// Padding: 128 bytes (two cache lines, so that adjacent-line prefetch does not pair them either) between the
// object header, the producer's fields, the consumer's fields and the rest.
@SuppressWarnings("unused")
abstract class SpscRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** Written by the producer only. */
abstract class SpscRingTail extends SpscRingPad0 {
    long tail;
    long headCache;
}

@SuppressWarnings("unused")
abstract class SpscRingPad1 extends SpscRingTail {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35;
}

/** Written by the consumer only. */
abstract class SpscRingHead extends SpscRingPad1 {
    long head;
    long tailCache;
}

@SuppressWarnings("unused")
abstract class SpscRingPad2 extends SpscRingHead {
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55;
}
