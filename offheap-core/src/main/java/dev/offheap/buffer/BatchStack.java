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

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free LIFO of batches of free slots of one size class (a Treiber stack whose nodes are whole
 * batches), so that a thread cache moves up to a batch of slots in or out with one compare-and-set. A batch is
 * a chain of slots through {@link Slot#link}; its first slot carries its size and the id of the next batch
 * down ({@link Slot#batchSize}, {@link Slot#nextBatch}). The head packs a version with the top id, so a batch
 * popped and pushed back while another thread was between reading the head and its compare-and-set cannot be
 * mistaken for an unchanged head (the ABA problem of recycled nodes).
 *
 * <p>The head sits alone on its cache line (padding fields before and after it), so that the stripes of one
 * class, allocated one after another, do not share lines.
 */
final class BatchStack extends BatchStackHead {
    private static final long EMPTY = 0;
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(BatchStackHead.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // padding after the head
    private long p10, p11, p12, p13, p14, p15, p16, p17;
    private final SizeClassPool slots;
    private final SharedLines.Line line;

    BatchStack(SizeClassPool slots, int stripe) {
        this.slots = slots;
        this.line = SharedLines.line(() -> "free batches of the " + slots.slotSize + "-byte class, stripe " + stripe);
    }

    boolean isEmpty() {
        return topId((long) HEAD.getOpaque(this)) < 0;
    }

    /** Pushes the batch that starts at {@code first}, whose {@link Slot#batchSize} and links are set. */
    void push(Slot first) {
        long h;
        do {
            h = (long) HEAD.getVolatile(this);
            first.nextBatch = topId(h);
            if (SharedLines.COUNTING) {
                line.add();
            }
        } while (!HEAD.compareAndSet(this, h, pack(h, first.id)));
    }

    /** The first slot of the top batch, or null if the stack is empty. */
    Slot pop() {
        for (;;) {
            long h = (long) HEAD.getVolatile(this);
            int top = topId(h);
            if (top < 0) {
                return null;
            }
            // If the batch moved since the head was read, its nextBatch may be stale, but the version moved
            // too and the compare-and-set below fails. A slot whose slab was freed meanwhile reads null.
            Slot first = slots.slotById(top);
            if (first == null) {
                if ((long) HEAD.getVolatile(this) == h) {
                    throw new IllegalStateException("free list of the " + slots.slotSize
                            + "-byte class holds slot " + top + " whose slab was freed");
                }
                continue;
            }
            if (SharedLines.COUNTING) {
                line.add();
            }
            if (HEAD.compareAndSet(this, h, pack(h, first.nextBatch))) {
                return first;
            }
        }
    }

    private static int topId(long head) {
        return (int) head - 1;
    }

    private static long pack(long previous, int topId) {
        long version = (previous >>> 32) + 1;
        return (version << 32) | ((topId + 1) & 0xFFFF_FFFFL);
    }
}

/** Padding before the head of a {@link BatchStack}: superclass fields are laid out first. */
abstract class BatchStackPadding {
    @SuppressWarnings("unused")
    private long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The head of a {@link BatchStack}, between two paddings. */
abstract class BatchStackHead extends BatchStackPadding {
    /** (version << 32) | (top id + 1); 0 in the low half means empty. */
    @SuppressWarnings("unused") // through BatchStack.HEAD
    volatile long head;
}
