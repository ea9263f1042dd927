package dev.offheap.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A lock-free LIFO of free slots of one size class (a Treiber stack). Slots are linked by id through
 * {@link Slot#next}, and the head packs a version with the top id, so a slot popped and pushed
 * back while another thread was between reading the head and its compare-and-set cannot be mistaken for an
 * unchanged head (the ABA problem of recycled nodes).
 */
final class FreeStack {
    private static final long EMPTY = 0;
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(FreeStack.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SizeClassPool slots;
    private final SharedLines.Line line;
    /** (version << 32) | (top id + 1); 0 in the low half means empty. */
    @SuppressWarnings("unused") // through HEAD
    private volatile long head = EMPTY;

    FreeStack(SizeClassPool slots) {
        this.slots = slots;
        this.line = SharedLines.line("free stack of the " + slots.slotSize + "-byte class");
    }

    void push(Slot slot) {
        long h;
        do {
            h = (long) HEAD.getVolatile(this);
            slot.next = topId(h);
            if (SharedLines.COUNTING) {
                line.add();
            }
        } while (!HEAD.compareAndSet(this, h, pack(h, slot.id)));
    }

    /** The top slot, or null if the stack is empty. */
    Slot pop() {
        for (;;) {
            long h = (long) HEAD.getVolatile(this);
            int top = topId(h);
            if (top < 0) {
                return null;
            }
            // If the slot moved since the head was read, its next may be stale, but the version moved too
            // and the compare-and-set below fails. A slot whose slab was freed meanwhile reads null.
            Slot slot = slots.slotById(top);
            if (slot == null) {
                if ((long) HEAD.getVolatile(this) == h) {
                    throw new IllegalStateException("free list of the " + slots.slotSize
                            + "-byte class holds slot " + top + " whose slab was freed");
                }
                continue;
            }
            if (SharedLines.COUNTING) {
                line.add();
            }
            if (HEAD.compareAndSet(this, h, pack(h, slot.next))) {
                return slot;
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
