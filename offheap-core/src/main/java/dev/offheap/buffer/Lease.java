package dev.offheap.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Reference counting shared by every kind of lease. Subclasses say what the memory is and what giving it
 * back means ({@link #deallocate()}, called exactly once, by whoever drops the last reference).
 */
abstract sealed class Lease implements Buffer
        permits PooledBuffer, SegmentLease, TrackedBuffer, UnpooledBuffer {

    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(Lease.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 0 while free, the reference count while leased. Atomic updates through REFS only. */
    private int refs;

    /** Starts a lease. The caller owns this object exclusively (it came from a free list or is new). */
    final void open() {
        REFS.set(this, 1);
    }

    /** Gives the memory back. Called once per lease, after the count reached 0. */
    abstract void deallocate();

    @Override
    public final int refCount() {
        return (int) REFS.getOpaque(this);
    }

    @Override
    public final Buffer retain() {
        int current;
        do {
            current = (int) REFS.getVolatile(this);
            if (current <= 0) {
                throw released("retain");
            }
            if (current == Integer.MAX_VALUE) {
                throw new IllegalStateException("reference count overflow on " + describe());
            }
        } while (!REFS.weakCompareAndSet(this, current, current + 1));
        return this;
    }

    @Override
    public final boolean release() {
        if (REFS.compareAndSet(this, 1, 0)) {
            deallocate();
            return true;
        }
        return releaseShared();
    }

    @Override
    public final void close() {
        release();
    }

    final void checkLive(String operation) {
        if ((int) REFS.getOpaque(this) <= 0) {
            throw released(operation);
        }
    }

    private boolean releaseShared() {
        int current;
        do {
            current = (int) REFS.getVolatile(this);
            if (current <= 0) {
                throw released("release");
            }
        } while (!REFS.weakCompareAndSet(this, current, current - 1));
        if (current == 1) {
            deallocate();
            return true;
        }
        return false;
    }

    final IllegalStateException released(String operation) {
        return new IllegalStateException("cannot " + operation + " " + describe()
                + ": it was already released (a double release, or use after release)");
    }

    String describe() {
        return "buffer of " + size() + " bytes";
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[size=" + size() + ", refCount=" + refCount() + "]";
    }
}
