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

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * A charge that would take a {@link MemoryBudget} past its limit. Nothing was charged: the caller may free
 * memory and try again, and the component that was charging stays usable.
 *
 * <p>The message says who asked for what and why it was refused, for example:
 *
 * <pre>
 * memory budget 'app' exceeded: buffer pool 'io' asked for acquire(1048576) = 1.0 MiB (1048576 bytes),
 * charging 4.0 MiB (4194304 bytes) to 'app/io'; 62.0 MiB (65011712 bytes) used of 64.0 MiB (67108864 bytes)
 * allowed at 'app' (budget 'app/io': 62.0 MiB); reclaimers freed 0 bytes before one retry
 * </pre>
 *
 * <p>Every fact is also an accessor: the component that asked ({@link #component()}), the request it was
 * serving ({@link #request()}, {@link #requestBytes()}), what it charged for it ({@link #requested()}: a
 * slab or a batch of chunks may differ from the request), the budget it charged ({@link #chargedPath()}),
 * and at the level that refused ({@link #budgetPath()}) what was used, allowed, held by whom and reclaimed.
 * The budget fills in the charge; a component's public entry point adds its request on the way out with
 * {@link #forRequest(String, String, long)}.
 */
public final class BudgetExceededException extends RuntimeException {
    private static final long serialVersionUID = 2L;

    /**
     * Who held memory at the refusing level when it refused.
     *
     * @param name  {@code owner '<name>'} for a {@link BudgetOwner} of that level, {@code budget '<path>'} for
     *              a child budget (with its reservation), {@code charged directly} for charges through neither
     * @param bytes bytes held
     */
    public record Holder(String name, long bytes) implements Serializable {
        @Override
        public String toString() {
            return name + ": " + Bytes.human(bytes);
        }
    }

    /** The path of the budget that refused. */
    private final String budgetPath;
    /** Bytes of the refused charge. */
    private final long requested;
    /** Bytes charged to the refusing budget when it refused. */
    private final long used;
    /** The refusing budget's limit. */
    private final long limit;
    /** Negative: no reclaimer was asked. */
    private final long reclaimed;
    /** The path of the budget charged. */
    private final String chargedPath;
    /** Who asked, or null. */
    private final String component;
    /** The call that needed the memory, or null. */
    private final String request;
    /** The bytes that call asked for; meaningless without a request. */
    private final long requestBytes;
    /** Who held the refusing budget's bytes, the largest first. */
    private final List<Holder> holders;

    /**
     * A refusal by {@code budgetPath} of a charge of {@code requested} bytes made to that same budget, for
     * components that keep budgets of their own; no reclaimer, component, request or holders are known.
     *
     * @param budgetPath the path of the budget that refused
     * @param requested  the bytes of the refused charge
     * @param used       the bytes charged to that budget when it refused
     * @param limit      that budget's limit
     */
    public BudgetExceededException(String budgetPath, long requested, long used, long limit) {
        this(budgetPath, requested, used, limit, -1, budgetPath, null, null, -1, List.of());
    }

    private BudgetExceededException(String budgetPath, long requested, long used, long limit, long reclaimed,
            String chargedPath, String component, String request, long requestBytes, List<Holder> holders) {
        super(message(budgetPath, requested, used, limit, reclaimed, chargedPath, component, request, requestBytes,
                holders));
        this.budgetPath = budgetPath;
        this.requested = requested;
        this.used = used;
        this.limit = limit;
        this.reclaimed = reclaimed;
        this.chargedPath = chargedPath;
        this.component = component;
        this.request = request;
        this.requestBytes = requestBytes;
        this.holders = List.copyOf(holders);
    }

    /**
     * What the budget layer knows when {@code refusing} refuses a charge made to {@code charged}.
     *
     * @param owner     the owner charged through, or null
     * @param reclaimed bytes the reclaimers freed; negative if none was asked
     */
    static BudgetExceededException refused(MemoryBudget refusing, MemoryBudget charged, BudgetOwner owner,
            long requested, long reclaimed) {
        return new BudgetExceededException(refusing.path(), requested, refusing.used(), refusing.limit(), reclaimed,
                charged.path(), owner == null ? null : "owner '" + owner.name() + "'", null, -1, refusing.holders());
    }

    /**
     * The same refusal, for the request a component's public entry point was serving: components built on
     * budgets call it on the way out so that the message names what the user asked for, e.g.
     * {@code catch (BudgetExceededException e) { throw e.forRequest("buffer pool 'io'", "acquire(" + size + ")",
     * size); }}. The stack trace stays the original's.
     *
     * @param component    who asked, as users know it, e.g. {@code "chunk pool 'samples'"}
     * @param request      the call, e.g. {@code "doubles(8000000)"}
     * @param requestBytes the bytes that call asked for
     * @return a new exception with the same figures, naming the request
     */
    public BudgetExceededException forRequest(String component, String request, long requestBytes) {
        BudgetExceededException enriched = new BudgetExceededException(budgetPath, requested, used, limit, reclaimed,
                chargedPath, component, request, requestBytes, holders);
        enriched.setStackTrace(getStackTrace());
        return enriched;
    }

    /** {@return the budget that refused, as {@link MemoryBudget#path()}: the one charged or one of its ancestors} */
    public String budgetPath() {
        return budgetPath;
    }

    /**
     * Bytes of the refused charge: what the component charged, which may differ from what it was asked for
     * ({@link #requestBytes()}): a whole slab for one buffer, the chunks still missing for an array.
     *
     * @return the bytes of the refused charge
     */
    public long requested() {
        return requested;
    }

    /** {@return the bytes charged to the refusing budget when it refused (a snapshot; others may release meanwhile)} */
    public long used() {
        return used;
    }

    /** {@return the refusing budget's limit} */
    public long limit() {
        return limit;
    }

    /**
     * {@return the bytes the budget's {@link Reclaimer}s freed before the charge was retried and refused again;
     * 0 if none ran}
     */
    public long reclaimed() {
        return Math.max(0, reclaimed);
    }

    /** {@return the budget the charge was made to, as {@link MemoryBudget#path()}: {@link #budgetPath()} or below it} */
    public String chargedPath() {
        return chargedPath;
    }

    /**
     * Who asked: the component named by {@link #forRequest}, else the {@link BudgetOwner} charged through
     * ({@code owner '<name>'}).
     *
     * @return who asked, empty for a charge made to the budget directly
     */
    public Optional<String> component() {
        return Optional.ofNullable(component);
    }

    /**
     * {@return the call that needed the memory, e.g. {@code acquire(1048576)}, if a component's entry point
     * named it}
     */
    public Optional<String> request() {
        return Optional.ofNullable(request);
    }

    /** {@return the bytes {@link #request()} asked for, if known} */
    public OptionalLong requestBytes() {
        return request == null ? OptionalLong.empty() : OptionalLong.of(requestBytes);
    }

    /**
     * Who held the refusing budget's {@link #used()} bytes, the largest first: its owners, its children,
     * direct charges.
     *
     * @return the holders, an unmodifiable list
     */
    public List<Holder> holders() {
        return holders;
    }

    private static String message(String budgetPath, long requested, long used, long limit, long reclaimed,
            String chargedPath, String component, String request, long requestBytes, List<Holder> holders) {
        StringBuilder text = new StringBuilder("memory budget '").append(budgetPath).append("' exceeded: ");
        if (component != null) {
            text.append(component).append(' ');
        }
        text.append("asked for ");
        boolean chargedElsewhere = !chargedPath.equals(budgetPath);
        if (request != null) {
            text.append(request).append(" = ").append(Bytes.format(requestBytes));
            if (requested != requestBytes) {
                text.append(", charging ").append(Bytes.format(requested));
            } else if (chargedElsewhere) {
                text.append(", charged");
            }
        } else {
            text.append(Bytes.format(requested));
        }
        if (chargedElsewhere) {
            text.append(" to '").append(chargedPath).append('\'');
        }
        text.append("; ").append(Bytes.format(used)).append(" used of ").append(Bytes.format(limit))
                .append(" allowed at '").append(budgetPath).append('\'');
        if (!holders.isEmpty()) {
            text.append(holders.stream().map(Holder::toString).collect(Collectors.joining(", ", " (", ")")));
        }
        if (reclaimed >= 0) {
            text.append("; reclaimers freed ").append(Bytes.format(reclaimed)).append(" before one retry");
        }
        return text.toString();
    }
}
