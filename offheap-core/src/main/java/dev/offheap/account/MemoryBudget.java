package dev.offheap.account;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.Optional;

/**
 * A limit on native memory, charged by whoever takes memory from the operating system.
 *
 * <p>Budgets form a tree: a charge to a child is also a charge to each ancestor, and succeeds only if every
 * level stays within its limit. If one level refuses, the levels already charged are rolled back and a
 * {@link BudgetExceededException} names the budget that refused. One process-wide root can therefore cap
 * several pools while each pool keeps a limit of its own:
 *
 * {@snippet :
 * MemoryBudget process = MemoryBudget.root("process", 512L << 20);
 * MemoryBudget io = process.child("io-buffers", 256L << 20);
 * BufferPool pool = BufferPool.builder().budget(io).build();
 * }
 *
 * <p>Charging is lock-free: one compare-and-set per level. Components charge in large units (slabs,
 * chunks), never per buffer.
 */
public final class MemoryBudget {
    /** No limit: {@code Long.MAX_VALUE} bytes. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private static final VarHandle USED;
    private static final VarHandle PEAK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            USED = lookup.findVarHandle(MemoryBudget.class, "used", long.class);
            PEAK = lookup.findVarHandle(MemoryBudget.class, "peak", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final MemoryBudget parent;
    private final long limit;
    @SuppressWarnings("unused") // through USED
    private volatile long used;
    @SuppressWarnings("unused") // through PEAK
    private volatile long peak;

    private MemoryBudget(String name, MemoryBudget parent, long limit) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.indexOf('/') >= 0) {
            throw new IllegalArgumentException("budget name must be non-blank and contain no '/': '" + name + "'");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("budget '" + name + "' limit must be >= 0: " + limit);
        }
        this.name = name;
        this.parent = parent;
        this.limit = limit;
    }

    /** A budget with no parent. */
    public static MemoryBudget root(String name, long limitBytes) {
        return new MemoryBudget(name, null, limitBytes);
    }

    /** A root with no limit: it only counts. */
    public static MemoryBudget unlimited(String name) {
        return root(name, UNLIMITED);
    }

    /** A budget under this one, with a limit of its own (at most this one's in effect). */
    public MemoryBudget child(String name, long limitBytes) {
        return new MemoryBudget(name, this, limitBytes);
    }

    /**
     * Charges {@code bytes} to this budget and every ancestor.
     *
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws BudgetExceededException if any level would go past its limit; nothing stays charged
     */
    public void charge(long bytes) {
        MemoryBudget refused = tryChargeAll(bytes);
        if (refused != null) {
            throw new BudgetExceededException(refused.path(), bytes, refused.used(), refused.limit);
        }
    }

    /** Like {@link #charge(long)} but answers false instead of throwing. */
    public boolean tryCharge(long bytes) {
        return tryChargeAll(bytes) == null;
    }

    /**
     * Gives back {@code bytes} charged earlier, at every level.
     *
     * @throws IllegalStateException if this would make a level negative: a release without its charge
     */
    public void release(long bytes) {
        checkBytes(bytes);
        for (MemoryBudget b = this; b != null; b = b.parent) {
            long now = (long) USED.getAndAdd(b, -bytes) - bytes;
            if (now < 0) {
                USED.getAndAdd(b, bytes);
                throw new IllegalStateException("budget '" + b.path() + "' released " + bytes
                        + " bytes but only " + (now + bytes) + " were charged");
            }
        }
    }

    /** Bytes charged now. */
    public long used() {
        return (long) USED.getVolatile(this);
    }

    /** The most bytes ever charged at once. */
    public long peak() {
        return (long) PEAK.getVolatile(this);
    }

    /** This level's limit in bytes ({@link #UNLIMITED} if none). */
    public long limit() {
        return limit;
    }

    /** What a charge could still get here, counting every ancestor's room too. */
    public long available() {
        long room = Long.MAX_VALUE;
        for (MemoryBudget b = this; b != null; b = b.parent) {
            room = Math.min(room, Math.max(0, b.limit - b.used()));
        }
        return room;
    }

    public String name() {
        return name;
    }

    /** Names from the root down, joined by '/': {@code process/io-buffers}. */
    public String path() {
        return parent == null ? name : parent.path() + "/" + name;
    }

    public Optional<MemoryBudget> parent() {
        return Optional.ofNullable(parent);
    }

    @Override
    public String toString() {
        return "MemoryBudget[" + path() + ": " + used() + " of "
                + (limit == UNLIMITED ? "unlimited" : Long.toString(limit)) + " bytes]";
    }

    /** Returns null on success, else the level that refused (with every lower level rolled back). */
    private MemoryBudget tryChargeAll(long bytes) {
        checkBytes(bytes);
        for (MemoryBudget b = this; b != null; b = b.parent) {
            if (!b.tryChargeHere(bytes)) {
                for (MemoryBudget undo = this; undo != b; undo = undo.parent) {
                    USED.getAndAdd(undo, -bytes);
                }
                return b;
            }
        }
        // Peaks only for charges that every level accepted: a refused one never happened.
        for (MemoryBudget b = this; b != null; b = b.parent) {
            b.raisePeak((long) USED.getVolatile(b));
        }
        return null;
    }

    private boolean tryChargeHere(long bytes) {
        long current;
        long next;
        do {
            current = (long) USED.getVolatile(this);
            next = current + bytes;
            if (next > limit || next < 0) {
                return false;
            }
        } while (!USED.weakCompareAndSet(this, current, next));
        return true;
    }

    private void raisePeak(long candidate) {
        long seen;
        while (candidate > (seen = (long) PEAK.getVolatile(this)) && !PEAK.weakCompareAndSet(this, seen, candidate)) {
            Thread.onSpinWait();
        }
    }

    private static void checkBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
    }
}
