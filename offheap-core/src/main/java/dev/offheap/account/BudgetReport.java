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

import java.util.ArrayList;
import java.util.List;

/**
 * What a {@link MemoryBudget} has charged and who took it: the budget's figures, each {@link BudgetOwner}
 * with bytes outstanding, each child budget with bytes charged (their own reports), and what was charged
 * directly to the budget rather than through an owner. A snapshot; exact when nothing charges or releases
 * meanwhile.
 *
 * @param path         the budget's {@link MemoryBudget#path()}
 * @param used         bytes charged at this level (owners, children and direct charges together)
 * @param peak         the most bytes ever charged at once
 * @param limit        the limit ({@link MemoryBudget#UNLIMITED} if none)
 * @param reservation  bytes guaranteed by the parent
 * @param owners       owners with bytes outstanding
 * @param children     child budgets with bytes charged, reservations included
 * @param unattributed bytes charged directly to this budget, through no owner and no child
 */
public record BudgetReport(String path, long used, long peak, long limit, long reservation, List<Owner> owners,
        List<BudgetReport> children, long unattributed) {
    /** Frames of an owner's opening stack shown by {@link #format()}. */
    private static final int FRAMES = 16;

    /**
     * The canonical constructor; copies the lists.
     *
     * @throws NullPointerException if {@code owners} or {@code children}, or one of their elements, is null
     */
    public BudgetReport {
        owners = List.copyOf(owners);
        children = List.copyOf(children);
    }

    /**
     * One owner's balance.
     *
     * @param name        the owner's name
     * @param outstanding bytes charged through it and not released
     * @param openedBy    the thread that opened it
     * @param openedAt    where it was opened, innermost frame first
     */
    public record Owner(String name, long outstanding, String openedBy, List<StackTraceElement> openedAt) {
        /**
         * The canonical constructor; copies the list.
         *
         * @throws NullPointerException if {@code openedAt} or one of its elements is null
         */
        public Owner {
            openedAt = List.copyOf(openedAt);
        }
    }

    /** {@return whether nothing is charged at this level} */
    public boolean isClean() {
        return used == 0;
    }

    /**
     * Who holds what, on one line, from this budget down: {@code 'process/io' owner 'buffer pool io' holds
     * 4.0 KiB (4096 bytes); 'process' holds 7 bytes through no owner}.
     *
     * @return the line, empty if nothing is held
     */
    public String holdings() {
        List<String> parts = new ArrayList<>();
        holdings(parts);
        return String.join("; ", parts);
    }

    private void holdings(List<String> parts) {
        for (Owner owner : owners) {
            parts.add("'" + path + "' owner '" + owner.name() + "' holds " + Bytes.format(owner.outstanding()));
        }
        if (unattributed != 0) {
            parts.add("'" + path + "' holds " + Bytes.format(unattributed) + " through no owner");
        }
        for (BudgetReport child : children) {
            child.holdings(parts);
        }
    }

    /**
     * The report for people: one line per budget and owner, then the stack where each owner was opened.
     *
     * @return the text, several lines
     */
    public String format() {
        StringBuilder out = new StringBuilder();
        format(out, "");
        return out.toString();
    }

    @Override
    public String toString() {
        return format();
    }

    private void format(StringBuilder out, String indent) {
        out.append(indent).append("memory budget '").append(path).append("': ").append(Bytes.format(used))
                .append(" charged; peak ").append(Bytes.human(peak)).append(", limit ")
                .append(limit == MemoryBudget.UNLIMITED ? "unlimited" : Bytes.human(limit))
                .append(", reservation ").append(Bytes.human(reservation)).append('\n');
        for (Owner owner : owners) {
            out.append(indent).append("  owner '").append(owner.name()).append("': ")
                    .append(Bytes.format(owner.outstanding())).append(" outstanding; opened by thread '")
                    .append(owner.openedBy()).append("' at\n");
            List<StackTraceElement> frames = owner.openedAt();
            for (int i = 0; i < Math.min(FRAMES, frames.size()); i++) {
                out.append(indent).append("      at ").append(frames.get(i)).append('\n');
            }
            if (frames.size() > FRAMES) {
                out.append(indent).append("      ... ").append(frames.size() - FRAMES).append(" more\n");
            }
        }
        if (unattributed != 0) {
            out.append(indent).append("  charged directly, through no owner: ").append(Bytes.format(unattributed))
                    .append('\n');
        }
        for (BudgetReport child : children) {
            child.format(out, indent + "  ");
        }
    }
}
