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

package dev.offheap.account;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

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
 * MemoryBudget store = process.child("store", 384L << 20, 128L << 20); // 128 MiB guaranteed
 * BufferPool pool = BufferPool.builder().budget(io).build();
 * }
 *
 * <p><b>Reservations.</b> A child created with a reservation charges it to its parent at once (creation
 * fails if the parent cannot give it) and keeps it for itself: charges that fit in what is left of the
 * reservation stop at the child, the rest goes up the tree. {@link #close()} gives the reservation back.
 *
 * <p><b>Reclaimers.</b> When a level refuses a charge, the {@link Reclaimer}s registered on that level and
 * on every budget below it are asked to free memory (in creation order, a budget's own reclaimers before
 * its children's, until the shortfall is freed), then the charge is tried once more; only then does it
 * fail. So a pool under one child trims its idle memory when the process root is full. A charge made from
 * inside a reclaimer never runs reclaimers, and neither does a charge larger than the limit of a level it goes
 * through: nothing freed could make room for it. Closing a budget tells its reclaimers
 * ({@link Reclaimer#budgetClosed(MemoryBudget)}), so that a pool refuses work at once.
 *
 * <p><b>Owners and close.</b> A component charges through a {@link BudgetOwner} of its own
 * ({@link #owner(String)}), which keeps its balance and the stack where it was opened. {@link #close()}
 * closes the budget and every budget below it: each refuses further charges (even one its reservation
 * would cover) and gives its unused reservation back. If memory is still charged anywhere below, it throws
 * an {@link IllegalStateException} whose first line names each budget path, owner and bytes still held,
 * followed by the {@link BudgetReport}: each owner with bytes outstanding and the stack that opened it,
 * each child with memory charged, and this budget's used, peak, limit and reservation. Loud, for tests and
 * orderly shutdowns; {@link #closeQuietly()} logs the same text to the {@code System.Logger}
 * {@code dev.offheap.account} instead and returns the report. Releases are accepted after close.
 *
 * <p>Charging is lock-free: one compare-and-set per level up to the first level whose reservation covers
 * it (two at that level), and a peak update. Everything else (paths, reports, reclaimers) happens only when
 * a charge is refused. Components charge in large units (slabs, chunks), never per buffer.
 *
 * <p>A child stays linked to its parent until it is closed (by its own close or an ancestor's) and nothing
 * is charged to it any more: close budgets you no longer need.
 */
public final class MemoryBudget implements AutoCloseable {
    /** No limit: {@code Long.MAX_VALUE} bytes. */
    public static final long UNLIMITED = Long.MAX_VALUE;

    private static final System.Logger LOG = System.getLogger("dev.offheap.account");
    /** Bound while this thread runs reclaimers: a charge they make must not reclaim again. */
    private static final ScopedValue<Boolean> RECLAIMING = ScopedValue.newInstance();
    private static final VarHandle USED;
    private static final VarHandle PEAK;
    private static final VarHandle CREDIT;
    private static final VarHandle BORROWED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            USED = lookup.findVarHandle(MemoryBudget.class, "used", long.class);
            PEAK = lookup.findVarHandle(MemoryBudget.class, "peak", long.class);
            CREDIT = lookup.findVarHandle(MemoryBudget.class, "credit", long.class);
            BORROWED = lookup.findVarHandle(MemoryBudget.class, "borrowed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final MemoryBudget parent;
    private final long limit;
    private final long reservation;
    @SuppressWarnings("unused") // through USED
    private volatile long used;
    @SuppressWarnings("unused") // through PEAK
    private volatile long peak;
    /** The part of the reservation not in use: charges take from it before going to the parent. */
    @SuppressWarnings("unused") // through CREDIT
    private volatile long credit;
    /**
     * With a reservation: bytes beyond it that the parent holds for this budget. Releases give these back
     * first, so the parent holds max(reservation, used) once charges settle.
     */
    @SuppressWarnings("unused") // through BORROWED
    private volatile long borrowed;
    private volatile boolean closed;
    /** The budget whose {@link #close()} closed this one: itself or an ancestor. Written before {@code closed}. */
    private MemoryBudget closedBy;
    private final Queue<MemoryBudget> children = new ConcurrentLinkedQueue<>();
    private final List<Reclaimer> reclaimers = new CopyOnWriteArrayList<>();
    private final Set<BudgetOwner> owners = ConcurrentHashMap.newKeySet();

    private MemoryBudget(String name, MemoryBudget parent, long limit, long reservation) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.indexOf('/') >= 0) {
            throw new IllegalArgumentException("budget name must be non-blank and contain no '/': '" + name + "'");
        }
        this.name = name;
        this.parent = parent;
        this.limit = limit;
        this.reservation = reservation;
        checkSettings();
        if (parent != null) {
            parent.checkOpen();
            if (reservation > 0) {
                try {
                    parent.charge(reservation);
                } catch (BudgetExceededException refused) {
                    throw refused.forRequest("new budget '" + path() + "'", "a reservation", reservation);
                }
                CREDIT.setVolatile(this, reservation);
            }
            parent.children.add(this);
            if (parent.closed) {
                // The parent's close may have walked its children before this one joined: close it here.
                shutDown(parent.closedBy);
                throw closedError();
            }
        }
    }

    /** Settings that cannot work together fail here, saying which one to change. */
    private void checkSettings() {
        if (limit < 0) {
            throw new IllegalArgumentException("budget '" + path() + "' limit must be >= 0: " + limit);
        }
        if (reservation < 0) {
            throw new IllegalArgumentException("budget '" + path() + "' reservation must be >= 0: " + reservation);
        }
        if (reservation > limit) {
            throw new IllegalArgumentException("budget '" + path() + "': its reservation of "
                    + Bytes.format(reservation) + " is above its limit of " + Bytes.format(limit)
                    + ": reserve at most " + Bytes.format(limit) + " or set the limit to at least "
                    + Bytes.format(reservation));
        }
        for (MemoryBudget above = parent; above != null && reservation > 0; above = above.parent) {
            if (reservation > above.limit) {
                throw new IllegalArgumentException("budget '" + path() + "': its reservation of "
                        + Bytes.format(reservation) + " can never be given: '" + above.path() + "' allows at most "
                        + Bytes.format(above.limit) + "; reserve at most that or raise the limit of '"
                        + above.path() + "'");
            }
        }
    }

    /**
     * A budget with no parent.
     *
     * @param name       the budget's name, the first element of every path below it
     * @param limitBytes the most bytes it allows charged at once ({@link #UNLIMITED} for no limit)
     * @return the new budget, open
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if the name is blank or holds '/', or the limit is negative
     */
    public static MemoryBudget root(String name, long limitBytes) {
        return new MemoryBudget(name, null, limitBytes, 0);
    }

    /**
     * A root with no limit: it only counts.
     *
     * @param name the budget's name
     * @return the new budget, open
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if the name is blank or holds '/'
     */
    public static MemoryBudget unlimited(String name) {
        return root(name, UNLIMITED);
    }

    /**
     * A budget under this one, with a limit of its own (at most this one's in effect) and no reservation.
     *
     * @param name       the child's name: its path is this budget's path, '/', and the name
     * @param limitBytes the most bytes the child allows charged at once ({@link #UNLIMITED} for no limit of its own)
     * @return the new budget, open
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if the name is blank or holds '/', or the limit is negative
     * @throws IllegalStateException if this budget is closed
     */
    public MemoryBudget child(String name, long limitBytes) {
        return new MemoryBudget(name, this, limitBytes, 0);
    }

    /**
     * A budget under this one with {@code reservationBytes} guaranteed: charged to this budget now, and
     * used by the child before it charges this budget again.
     *
     * @param name             the child's name
     * @param limitBytes       the most bytes the child allows charged at once
     * @param reservationBytes the bytes guaranteed to the child, at most {@code limitBytes}
     * @return the new budget, open, with its reservation charged here
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if the name is blank or holds '/', the limit is negative, or the reservation is negative, above {@code limitBytes} or above the
     *         limit of this budget or of one of its ancestors (it could never be given); the message says
     *         which setting to change
     * @throws BudgetExceededException if this budget cannot give the reservation now (its
     *         {@link BudgetExceededException#component()} is the new budget)
     * @throws IllegalStateException if this budget is closed
     */
    public MemoryBudget child(String name, long limitBytes, long reservationBytes) {
        return new MemoryBudget(name, this, limitBytes, reservationBytes);
    }

    /**
     * An account for one component that charges this budget, named in reports (for example
     * {@code "buffer pool 'io'"}). Remembers the caller's stack.
     *
     * @param name the component's name in reports
     * @return a new owner, with nothing charged
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalStateException if this budget is closed
     */
    public BudgetOwner owner(String name) {
        checkOpen();
        BudgetOwner owner = new BudgetOwner(this, name);
        owners.add(owner);
        return owner;
    }

    /**
     * Asks {@code reclaimer} to free memory whenever this budget or one of its ancestors refuses a charge, until
     * this budget closes, which tells it through {@link Reclaimer#budgetClosed(MemoryBudget)}. A reclaimer
     * registered twice is asked twice. An exception it throws is logged, and counts as nothing freed. On a
     * closed budget it is not kept: it is told at once that the budget is closed.
     *
     * @param reclaimer the code that frees memory
     * @throws NullPointerException if {@code reclaimer} is null
     */
    public void addReclaimer(Reclaimer reclaimer) {
        reclaimers.add(Objects.requireNonNull(reclaimer, "reclaimer"));
        if (closed) {
            tellClosed(reclaimer); // the close may have passed the list before this one joined it
        }
    }

    /**
     * Stops asking {@code reclaimer} (once, if it was registered twice).
     *
     * @param reclaimer a reclaimer given to {@link #addReclaimer(Reclaimer)}
     * @return whether it was registered
     */
    public boolean removeReclaimer(Reclaimer reclaimer) {
        return reclaimers.remove(reclaimer);
    }

    /**
     * Charges {@code bytes} to this budget and every ancestor. If a level refuses, asks the reclaimers at
     * and below that level to free memory and tries once more; unless {@code bytes} is above the limit of this
     * budget or an ancestor, which no reclaimer could make room for: then it is refused at once.
     *
     * @param bytes the bytes to charge
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws BudgetExceededException if a level would still go past its limit; nothing stays charged
     * @throws IllegalStateException if this budget or an ancestor is closed
     */
    public void charge(long bytes) {
        charge(bytes, null);
    }

    /**
     * Like {@link #charge(long)} but answers false instead of throwing {@link BudgetExceededException}.
     *
     * @param bytes the bytes to charge
     * @return true if the bytes are charged, false if a level refused them (then nothing stays charged)
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if this budget or an ancestor is closed
     */
    public boolean tryCharge(long bytes) {
        checkBytes(bytes);
        MemoryBudget refused = chargeUp(bytes);
        return refused == null || chargeAfterRefusal(bytes, refused, null, false);
    }

    /**
     * Gives back {@code bytes} charged earlier, at every level. Allowed after close.
     *
     * @param bytes the bytes to give back
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws IllegalStateException if this would make a level negative: a release without its charge
     */
    public void release(long bytes) {
        checkBytes(bytes);
        long charged = used();
        if (charged < bytes) {
            throw new IllegalStateException("budget '" + path() + "' released " + bytes + " bytes but only "
                    + charged + " were charged");
        }
        releaseUp(bytes);
    }

    /** {@return the bytes charged now, at this level (its children's charges included)} */
    public long used() {
        return (long) USED.getVolatile(this);
    }

    /** {@return the most bytes ever charged at once} */
    public long peak() {
        return (long) PEAK.getVolatile(this);
    }

    /** {@return this level's limit in bytes ({@link #UNLIMITED} if none)} */
    public long limit() {
        return limit;
    }

    /** {@return the bytes guaranteed by the parent (0 for a root or a child without a reservation)} */
    public long reservation() {
        return reservation;
    }

    /**
     * What a charge could still get here, counting every ancestor's room (and this level's reservation). A
     * snapshot: another thread may charge meanwhile, and reclaimers may free more when a charge is refused.
     *
     * @return the bytes, 0 once closed
     */
    public long available() {
        if (closed) {
            return 0;
        }
        long here = Math.max(0, limit - used());
        if (parent == null) {
            return here;
        }
        long fromAbove = parent.available();
        long withCredit = credit() > Long.MAX_VALUE - fromAbove ? Long.MAX_VALUE : credit() + fromAbove;
        return Math.min(here, withCredit);
    }

    /** {@return the name given at creation, the last element of its path} */
    public String name() {
        return name;
    }

    /** {@return the names from the root down, joined by '/': {@code process/io-buffers}} */
    public String path() {
        return parent == null ? name : parent.path() + "/" + name;
    }

    /** {@return the budget this one was made under, empty for a root} */
    public Optional<MemoryBudget> parent() {
        return Optional.ofNullable(parent);
    }

    /** {@return the children not closed yet (and those closed with memory still charged), in creation order} */
    public List<MemoryBudget> children() {
        return List.copyOf(children);
    }

    /** {@return whether this budget, or an ancestor, was closed} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Throws the error every charge to this budget throws once it, or an ancestor, is closed: for a component
     * built on the budget that refuses work with the budget's own words.
     *
     * @throws IllegalStateException if this budget or an ancestor is closed, naming this budget and the
     *         ancestor whose close closed it
     */
    public void checkOpen() {
        if (closed) {
            throw closedError();
        }
    }

    /** {@return what is charged now and who took it, this budget and those below it} */
    public BudgetReport report() {
        List<BudgetReport.Owner> owing = new ArrayList<>();
        long attributed = 0;
        for (BudgetOwner owner : owners) {
            long outstanding = owner.outstanding();
            if (outstanding != 0) {
                owing.add(new BudgetReport.Owner(owner.name(), outstanding, owner.openedBy(),
                        List.of(owner.openedAt())));
                attributed += outstanding;
            }
        }
        List<BudgetReport> charged = new ArrayList<>();
        for (MemoryBudget child : children) {
            long held = child.used() + child.credit();
            if (held != 0) {
                charged.add(child.report());
                attributed += held;
            }
        }
        long now = used();
        return new BudgetReport(path(), now, peak(), limit, reservation, owing, charged, now - attributed);
    }

    /**
     * Closes this budget and every budget below it: each refuses further charges, gives its unused
     * reservation back to its parent, and stops asking its reclaimers, telling each of them
     * ({@link Reclaimer#budgetClosed(MemoryBudget)}) before this returns. Idle children are closed quietly;
     * memory still charged anywhere below is reported here. Closing twice does nothing.
     *
     * @throws IllegalStateException if memory is still charged here: its first line names each budget path,
     *         owner and bytes still held, then comes the {@link BudgetReport} (the budgets are closed all
     *         the same; releases are still accepted, and a closed child leaves its parent's
     *         {@link #children()} once nothing is charged to it)
     */
    @Override
    public void close() {
        BudgetReport report = shutDown(this);
        if (report != null && !report.isClean()) {
            throw new IllegalStateException(closedWith(report));
        }
    }

    /**
     * Like {@link #close()}, but memory still charged is logged as a warning to the {@code System.Logger}
     * {@code dev.offheap.account} instead of thrown. Returns the report at closing (clean if nothing was
     * charged); if the budget was already closed, logs nothing and returns {@link #report()}.
     *
     * @return the report at closing, or the report now if it was closed before
     */
    public BudgetReport closeQuietly() {
        BudgetReport report = shutDown(this);
        if (report == null) {
            return report();
        }
        if (!report.isClean()) {
            LOG.log(System.Logger.Level.WARNING, closedWith(report));
        }
        return report;
    }

    private static String closedWith(BudgetReport report) {
        return "memory budget '" + report.path() + "' closed with memory still charged, "
                + Bytes.format(report.used()) + ": " + report.holdings() + "\n" + report.format();
    }

    @Override
    public String toString() {
        return "MemoryBudget[" + path() + ": " + used() + " of "
                + (limit == UNLIMITED ? "unlimited" : Long.toString(limit)) + " bytes"
                + (reservation > 0 ? ", " + reservation + " reserved" : "") + (closed ? ", closed" : "") + "]";
    }

    // ---- package-private: for owners and tests ----

    void forget(BudgetOwner owner) {
        owners.remove(owner);
    }

    /** {@link #charge(long)} through {@code owner} (null: directly), named in a refusal. */
    void charge(long bytes, BudgetOwner owner) {
        checkBytes(bytes);
        MemoryBudget refused = chargeUp(bytes);
        if (refused != null) {
            chargeAfterRefusal(bytes, refused, owner, true);
        }
    }

    /**
     * Who holds this level's bytes now, the largest first: its owners, its children, and direct charges.
     * For refusals only.
     */
    List<BudgetExceededException.Holder> holders() {
        List<BudgetExceededException.Holder> holders = new ArrayList<>();
        long attributed = 0;
        for (BudgetOwner owner : owners) {
            long outstanding = owner.outstanding();
            if (outstanding != 0) {
                holders.add(new BudgetExceededException.Holder("owner '" + owner.name() + "'", outstanding));
                attributed += outstanding;
            }
        }
        for (MemoryBudget child : children) {
            long held = child.used() + child.credit();
            if (held != 0) {
                holders.add(new BudgetExceededException.Holder("budget '" + child.path() + "'", held));
                attributed += held;
            }
        }
        long direct = used() - attributed;
        if (direct > 0) {
            holders.add(new BudgetExceededException.Holder("charged directly", direct));
        }
        holders.sort(Comparator.comparingLong(BudgetExceededException.Holder::bytes).reversed());
        return holders;
    }

    /** The unused part of the reservation. */
    long credit() {
        return (long) CREDIT.getVolatile(this);
    }

    // ---- the accounting ----

    /** Returns null on success, else the level that refused (with every lower level rolled back). */
    private MemoryBudget chargeUp(long bytes) {
        if (closed || !tryChargeHere(bytes)) {
            return this;
        }
        long fromCredit = reservation == 0 ? 0 : takeCredit(bytes);
        long fromParent = bytes - fromCredit;
        if (fromParent > 0 && parent != null) {
            MemoryBudget refused = parent.chargeUp(fromParent);
            if (refused != null) {
                USED.getAndAdd(this, -bytes);
                long toParent = fromCredit > 0 ? refill(fromCredit) : 0;
                if (toParent > 0) {
                    parent.releaseUp(toParent);
                }
                if (closed) {
                    unlinkIfIdle();
                }
                return refused;
            }
            if (reservation > 0) {
                BORROWED.getAndAdd(this, fromParent);
            }
        }
        // Peaks only for charges that every level accepted: a refused one never happened.
        raisePeak((long) USED.getVolatile(this));
        return null;
    }

    /**
     * The slow path: reclaim below the refusing level, retry once, then answer false or throw. A charge no
     * reclaimer could make room for is refused at once.
     */
    private boolean chargeAfterRefusal(long bytes, MemoryBudget refused, BudgetOwner owner, boolean orThrow) {
        long reclaimed = -1;
        MemoryBudget never = refused.closed ? null : refused.neverAllowing(bytes);
        if (never != null) {
            refused = never;
        } else if (!refused.closed && !RECLAIMING.isBound()) {
            MemoryBudget level = refused;
            long shortfall = Math.max(1, bytes - (level.limit - level.used()));
            reclaimed = ScopedValue.where(RECLAIMING, Boolean.TRUE).call(() -> level.reclaimBelow(shortfall));
            if (reclaimed >= 0) {
                MemoryBudget again = chargeUp(bytes);
                if (again == null) {
                    return true;
                }
                refused = again;
            }
        }
        if (refused.closed) {
            throw refused.closedError();
        }
        if (!orThrow) {
            return false;
        }
        throw BudgetExceededException.refused(refused, this, owner, bytes, reclaimed);
    }

    /**
     * The lowest level from this one up whose limit is below {@code bytes}, or null. A charge holds its full
     * bytes at every level it reaches (a parent holds at least what its child holds, reservation included),
     * so such a level could never allow it, even with everything else freed.
     */
    private MemoryBudget neverAllowing(long bytes) {
        for (MemoryBudget level = this; level != null; level = level.parent) {
            if (bytes > level.limit) {
                return level;
            }
        }
        return null;
    }

    /**
     * Asks the reclaimers of this budget and of every budget below it, until {@code wanted} bytes are freed.
     * Returns the bytes freed, or -1 if there was no reclaimer to ask.
     */
    private long reclaimBelow(long wanted) {
        long freed = 0;
        boolean asked = false;
        Deque<MemoryBudget> todo = new ArrayDeque<>();
        todo.add(this);
        while (!todo.isEmpty() && freed < wanted) {
            MemoryBudget budget = todo.removeFirst();
            for (Reclaimer reclaimer : budget.reclaimers) {
                asked = true;
                freed += ask(budget, reclaimer, wanted - freed);
                if (freed >= wanted) {
                    break;
                }
            }
            List<MemoryBudget> below = List.copyOf(budget.children);
            for (int i = below.size() - 1; i >= 0; i--) {
                todo.addFirst(below.get(i));
            }
        }
        return asked ? freed : -1;
    }

    private static long ask(MemoryBudget budget, Reclaimer reclaimer, long wanted) {
        try {
            return Math.max(0, reclaimer.reclaim(wanted));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a reclaimer of memory budget '" + budget.path() + "' failed", e);
            return 0;
        }
    }

    /**
     * Gives bytes back top-down, the parent before the child: a charge raises the child first, a release
     * lowers it last, so a level never holds more than its children charged (plus their reservations), even
     * for a moment while other threads charge.
     */
    private void releaseUp(long bytes) {
        long toParent = reservation > 0 ? keepInReservation(bytes) : bytes;
        if (parent != null && toParent > 0) {
            parent.releaseUp(toParent);
        }
        releaseHere(bytes);
        if (closed) {
            unlinkIfIdle();
        }
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

    private void releaseHere(long bytes) {
        long current;
        do {
            current = (long) USED.getVolatile(this);
            if (current < bytes) {
                throw new IllegalStateException("budget '" + path() + "' released " + bytes
                        + " bytes but only " + current + " were charged");
            }
        } while (!USED.weakCompareAndSet(this, current, current - bytes));
    }

    /** Takes up to {@code bytes} from the unused reservation; returns how much it took. */
    private long takeCredit(long bytes) {
        long current;
        long taken;
        do {
            current = (long) CREDIT.getVolatile(this);
            taken = Math.min(current, bytes);
            if (taken == 0) {
                return 0;
            }
        } while (!CREDIT.weakCompareAndSet(this, current, current - taken));
        return taken;
    }

    /**
     * Splits released bytes: those borrowed from the parent go back to it, the rest refill the reservation.
     * Returns the bytes to release at the parent.
     */
    private long keepInReservation(long bytes) {
        long current;
        long toParent;
        do {
            current = (long) BORROWED.getVolatile(this);
            toParent = Math.min(current, bytes);
        } while (toParent > 0 && !BORROWED.weakCompareAndSet(this, current, current - toParent));
        long kept = bytes - toParent;
        return kept > 0 ? toParent + refill(kept) : toParent;
    }

    /**
     * Puts bytes back into the unused reservation. A closed budget keeps none: returns what must then go
     * back to the parent (0 while open).
     */
    private long refill(long bytes) {
        CREDIT.getAndAdd(this, bytes);
        // A release racing with close() may refill after close drained: whoever sees closed drains.
        return closed ? (long) CREDIT.getAndSet(this, 0L) : 0;
    }

    private void raisePeak(long candidate) {
        long seen;
        while (candidate > (seen = (long) PEAK.getVolatile(this)) && !PEAK.weakCompareAndSet(this, seen, candidate)) {
            Thread.onSpinWait();
        }
    }

    /**
     * Closes this budget and, first, every budget below it, once: returns the report at closing, or null if
     * already closed. {@code closer} is the budget whose close() was called.
     */
    private BudgetReport shutDown(MemoryBudget closer) {
        synchronized (this) {
            if (closed) {
                return null;
            }
            closedBy = closer;
            closed = true;
        }
        for (Reclaimer reclaimer : reclaimers) {
            tellClosed(reclaimer);
        }
        for (MemoryBudget child : children) {
            child.shutDown(closer);
        }
        long unused = (long) CREDIT.getAndSet(this, 0L);
        if (unused > 0) {
            parent.releaseUp(unused);
        }
        BudgetReport report = report();
        unlinkIfIdle();
        return report;
    }

    /** A closed budget leaves its parent's children once nothing is charged to it any more. */
    private void unlinkIfIdle() {
        if (parent != null && used() == 0 && credit() == 0) {
            parent.children.remove(this);
        }
    }

    /**
     * Takes {@code reclaimer} off this closed budget's list and tells it so: once per registration, by whoever
     * removes it (the close, or an {@link #addReclaimer} that raced it).
     */
    private void tellClosed(Reclaimer reclaimer) {
        if (!reclaimers.remove(reclaimer)) {
            return;
        }
        try {
            reclaimer.budgetClosed(this);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "a reclaimer of memory budget '" + path()
                    + "' failed when told the budget closed", e);
        }
    }

    private IllegalStateException closedError() {
        MemoryBudget by = closedBy;
        return new IllegalStateException("memory budget '" + path() + "' is closed"
                + (by == null || by == this ? "" : " because its ancestor '" + by.path() + "' is closed"));
    }

    private static void checkBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
        }
    }
}
