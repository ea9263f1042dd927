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

import dev.offheap.account.MemoryInUseException;
import dev.offheap.metrics.jfr.JfrEvents;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Reference counting shared by every kind of lease. A lease object stands for one lease only: it starts
 * with one reference and, once the count reached 0, never counts again. Subclasses say what the memory is
 * and what giving it back means ({@link #deallocate()}, called exactly once, by whoever drops the last
 * reference).
 */
abstract sealed class Lease implements BufferLease
        permits PooledBuffer, DedicatedBuffer, TrackedBuffer {

    private static final VarHandle REFS;

    static {
        try {
            REFS = MethodHandles.lookup().findVarHandle(Lease.class, "refs", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The reference count: 1 when opened, 0 once released for good. Atomic updates through REFS only. */
    private int refs;

    /** Starts the lease; called once, by the constructor of the subclass . */
    final void open() {
        REFS.set(this, 1);
    }

    /**
     * Gives the memory back, after the count reached 0.
     *
     * @throws MemoryInUseException if an I/O operation or native call holds a view whose end must come first:
     *         then nothing may have changed, and the count goes back to 1
     */
    abstract void deallocate();

    /** The size leased, readable in messages after release. */
    abstract int leasedSize();

    @Override
    public final int refCount() {
        return (int) REFS.getOpaque(this);
    }

    @Override
    public final BufferLease retain() {
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
            end();
            return true;
        }
        return releaseShared();
    }

    /** The last reference is gone: gives the memory back, or takes the reference back if it is held. */
    private void end() {
        try {
            deallocate();
        } catch (MemoryInUseException held) {
            REFS.setVolatile(this, 1);
            throw held;
        }
    }

    /** The exception of a last release that finds a view held: nothing changed, the lease stays live. */
    final MemoryInUseException held(long bytes) {
        return new MemoryInUseException("cannot release " + describe() + " now", bytes, "nothing changed: the"
                + " lease keeps its reference and its memory; release it again once that operation has ended", null);
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
            end();
            return true;
        }
        return false;
    }

    /** The exception for a use of this lease after its release; also recorded as a JFR event. */
    final IllegalStateException released(String operation) {
        Throwable acquiredAt = acquiredAt();
        Throwable releasedAt = releasedAt();
        JfrEvents.useAfterRelease(poolName(), leasedSize(), operation, acquiredAt, releasedAt);
        IllegalStateException e = new IllegalStateException("cannot " + operation + " " + describe()
                + ": it was already released (a double release, or use after release)"
                + (acquiredAt == null ? "" : CallSite.describe(acquiredAt, releasedAt)));
        if (acquiredAt != null) {
            e.initCause(acquiredAt);
        }
        if (releasedAt != null) {
            e.addSuppressed(releasedAt);
        }
        return e;
    }

    /** Where this lease was acquired, for leases that record it (sampled for use-after-release); else null. */
    Throwable acquiredAt() {
        return null;
    }

    /** Where this lease was released, for leases that record it; else null. */
    Throwable releasedAt() {
        return null;
    }

    /** The pool's name, or the strategy's, for messages and events. */
    abstract String poolName();

    String describe() {
        return "buffer of " + leasedSize() + " bytes from pool '" + poolName() + "'";
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[pool=" + poolName() + ", size=" + leasedSize() + ", refCount="
                + refCount() + "]";
    }
}
