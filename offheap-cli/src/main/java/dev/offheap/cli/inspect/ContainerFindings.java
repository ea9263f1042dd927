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

package dev.offheap.cli.inspect;

import dev.offheap.account.Bytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the container view shows in plain words: the JVM's ceilings adding up to more than the container's limit,
 * and memory close to the limit (or OOM kills already). Each finding names its figures and where they come from,
 * and says nothing on a healthy container.
 */
final class ContainerFindings {
    /** The working set's share of the limit above which the container is close to it. */
    static final double NEAR_LIMIT = 0.90;
    /** malloc's share of the limit from which bounding it is among the remedies. */
    static final double BIG_MALLOC = 0.10;

    private ContainerFindings() {}

    /**
     * Every container finding for a look at the target, and in watch mode the look before.
     *
     * @param container the target's cgroup, or null when it could not be read
     * @param ceilings the JVM's ceilings, or null when its flags are unknown
     * @param before the cgroup at the previous sample, or null
     * @param ceilingsBefore the ceilings at the previous sample, or null
     * @param since the time between the two samples, or null
     */
    static List<Finding> of(ContainerMemory container, Ceilings ceilings, ContainerMemory before,
            Ceilings ceilingsBefore, Duration since) {
        List<Finding> found = new ArrayList<>();
        ceilingsAboveLimit(container, ceilings, before, ceilingsBefore, since)
                .ifPresent(text -> found.add(Finding.warning("ceilings-above-container-limit", text)));
        nearLimit(container).ifPresent(text -> found.add(
                Finding.critical(isNear(container) ? "container-near-limit" : "container-oom-kills", text)));
        return found;
    }

    /**
     * When the ceilings add up to more than the limit: the limit, each ceiling with its flag, the sum, the headroom
     * now, and with a previous sample the part that grew most since.
     */
    static Optional<String> ceilingsAboveLimit(ContainerMemory container, Ceilings ceilings, ContainerMemory before,
            Ceilings ceilingsBefore, Duration since) {
        if (container == null || ceilings == null || container.limit() == null
                || ceilings.sum() <= container.limit().value()) {
            return Optional.empty();
        }
        ContainerMemory.Figure limit = container.limit();
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "The JVM's ceilings add up to %s, more than the container's memory limit of %s (%s, %s): ",
                Bytes.human(ceilings.sum()), Bytes.human(limit.value()), limit.source(), container.describe()));
        List<String> parts = new ArrayList<>();
        for (Ceilings.Item i : ceilings.items()) {
            parts.add(i.label() + " " + Bytes.human(i.bytes()) + ": " + i.source());
        }
        text.append(String.join("; ", parts)).append('.');
        ContainerMemory.Figure headroom = container.headroom();
        if (headroom == null) {
            text.append(" No usage figure, so no headroom.");
        } else {
            text.append(String.format(Locale.ROOT, " Headroom now %s (limit %s - usage %s, %s).",
                    Bytes.human(headroom.value()), Bytes.human(limit.value()), Bytes.human(container.usage().value()),
                    container.usage().source()));
        }
        growth(ceilings, before, ceilingsBefore, container, since).ifPresent(g -> text.append(' ').append(g));
        text.append(" The kernel OOM-kills the process when the cgroup's memory reaches the limit, whatever the JVM's"
                + " own limits still allow (a JVM with -Xmx4g in a 6 GB container can be killed with a 2.5 GB heap). Make the"
                + " ceilings fit: ");
        List<String> remedies = new ArrayList<>();
        Ceilings.Item direct = ceilings.item("directBuffers");
        if (direct != null && direct.source().startsWith("-XX:MaxDirectMemorySize not set")) {
            remedies.add("set -XX:MaxDirectMemorySize");
        }
        Ceilings.Item malloc = ceilings.item("malloc");
        if (malloc != null && malloc.bytes() >= limit.value() * BIG_MALLOC) {
            remedies.add("bound malloc (MALLOC_ARENA_MAX=2, or jemalloc)");
        }
        remedies.add("lower -Xmx, or raise the limit");
        text.append(String.join("; ", remedies)).append('.');
        return Optional.of(text.toString());
    }

    /** Which part grew most since the previous sample, and by how much the cgroup's usage changed. */
    private static Optional<String> growth(Ceilings now, ContainerMemory before, Ceilings ceilingsBefore,
            ContainerMemory container, Duration since) {
        if (ceilingsBefore == null) {
            return Optional.empty();
        }
        Ceilings.Usage a = ceilingsBefore.now();
        Ceilings.Usage b = now.now();
        String[] labels = {"heap (resident)", "direct buffers", "metaspace (committed)", "code cache (resident)",
            "thread stacks (resident)", "offheap pools", "malloc (less direct buffers)"};
        long[] deltas = {b.heap() - a.heap(), a.directBuffers() < 0 || b.directBuffers() < 0 ? 0 : b.directBuffers() - a.directBuffers(), b.metaspace() - a.metaspace(),
            b.codeCache() - a.codeCache(), b.threadStacks() - a.threadStacks(), b.offheap() - a.offheap(),
            a.malloc() < 0 || b.malloc() < 0 ? 0 : b.mallocBeyondDirect() - a.mallocBeyondDirect()};
        int most = 0;
        for (int i = 1; i < deltas.length; i++) {
            if (deltas[i] > deltas[most]) {
                most = i;
            }
        }
        String when = since == null ? "Since the previous sample"
                : "Since the previous sample " + since.toSeconds() + " s ago";
        String usage = "";
        if (before != null && before.usage() != null && container.usage() != null) {
            usage = ", usage " + signed(container.usage().value() - before.usage().value()) + " ("
                    + container.usage().source() + ")";
        }
        if (deltas[most] <= 0) {
            return Optional.of(when + " no part grew" + usage + ".");
        }
        return Optional.of(when + " " + labels[most] + " grew most: " + signed(deltas[most]) + usage + ".");
    }

    private static String signed(long bytes) {
        return (bytes > 0 ? "+" : bytes < 0 ? "-" : "") + Bytes.human(Math.abs(bytes));
    }

    /**
     * When the working set (usage when it is unknown) is above {@link #NEAR_LIMIT} of the limit, with the page
     * cache's share (reclaimable, but shared memory is not) and anon's (not reclaimable without swap); or, when the
     * OOM killer has killed in the cgroup, that.
     */
    static Optional<String> nearLimit(ContainerMemory container) {
        if (container == null) {
            return Optional.empty();
        }
        ContainerMemory.Figure limit = container.limit();
        ContainerMemory.Figure measure = measure(container);
        boolean near = isNear(container);
        long kills = container.oomKills() == null ? 0 : container.oomKills().value();
        if (!near && kills == 0) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        if (near) {
            String what = container.workingSet() != null ? "working set" : "usage";
            text.append(String.format(Locale.ROOT, "The container is close to its memory limit: %s %s is %.1f %% of"
                    + " the %s limit (%s, %s).", what, Bytes.human(measure.value()),
                    100.0 * measure.value() / limit.value(), Bytes.human(limit.value()), limit.source(),
                    container.describe()));
            if (container.workingSet() != null) {
                text.append(String.format(Locale.ROOT, " The working set is usage %s less inactive_file %s (%s), as"
                        + " Kubernetes counts it.", Bytes.human(container.usage().value()),
                        Bytes.human(container.inactiveFile().value()), container.workingSet().source()));
            }
            if (container.anon() != null) {
                text.append(String.format(Locale.ROOT, " Anon %s (%s) cannot be reclaimed without swap.",
                        Bytes.human(container.anon().value()), container.anon().source()));
            }
            if (container.pageCache() != null && container.usage() != null && container.usage().value() > 0) {
                ContainerMemory.Figure cache = container.pageCache();
                text.append(String.format(Locale.ROOT, " Page cache %s (%s) is %.1f %% of usage; the kernel can"
                        + " reclaim it before it OOM-kills", Bytes.human(cache.value()), cache.source(),
                        100.0 * cache.value() / container.usage().value()));
                if (container.shmem() != null && container.shmem().value() > 0) {
                    text.append(String.format(Locale.ROOT, ", except %s of shared memory (%s: tmpfs, /dev/shm),"
                            + " which it cannot reclaim without swap", Bytes.human(container.shmem().value()),
                            container.shmem().source()));
                }
                text.append('.');
            }
            if (container.limitHits() != null && container.limitHits().value() > 0) {
                text.append(String.format(Locale.ROOT, " Usage has reached the limit %d times (%s).",
                        container.limitHits().value(), container.limitHits().source()));
            }
        }
        if (kills > 0) {
            if (near) {
                text.append(' ');
            }
            text.append(String.format(Locale.ROOT, "The OOM killer has killed %d process%s in this cgroup (%s%s)",
                    kills, kills == 1 ? "" : "es", container.oomKills().source(),
                    near ? "" : ", " + container.describe()));
            if (!near && limit != null && measure != null) {
                text.append(String.format(Locale.ROOT, "; its %s is %.1f %% of the %s limit now",
                        container.workingSet() != null ? "working set" : "usage",
                        100.0 * measure.value() / limit.value(), Bytes.human(limit.value())));
            }
            text.append('.');
        }
        return Optional.of(text.toString());
    }

    /** The working set (or usage, where the working set is unknown) above {@link #NEAR_LIMIT} of the limit. */
    private static boolean isNear(ContainerMemory container) {
        ContainerMemory.Figure limit = container.limit();
        ContainerMemory.Figure measure = measure(container);
        return limit != null && measure != null && limit.value() > 0
                && (double) measure.value() / limit.value() > NEAR_LIMIT;
    }

    private static ContainerMemory.Figure measure(ContainerMemory container) {
        return container.workingSet() != null ? container.workingSet() : container.usage();
    }
}
