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
import java.util.List;
import java.util.Locale;

/**
 * What a {@code --native-callers} recording shows: a Java call site that keeps the native memory it takes
 * (growth, a leak if it goes on), or nothing kept while glibc keeps much memory free (retention, whose remedy is
 * malloc's settings, not the code).
 */
final class NativeCallerFindings {
    private static final long MIB = 1 << 20;
    private static final long NATIVE_HELD = MIB;
    private static final double NATIVE_HELD_SHARE = 0.5;
    private static final long RETAINED_BYTES = 32 * MIB;
    private static final double RETAINED_SHARE = 0.25;

    private NativeCallerFindings() {}

    /** The findings of the sample's recording, none without one. */
    static void addTo(Sample now, List<Finding> found) {
        nativeMemoryHeld(now, found);
        mallocRetention(now, found);
    }

    /**
     * Only with {@code --native-callers}: a Java call site that allocated at least 1 MiB in the window and still
     * holds most of it (the JVM's own allocations without a Java frame, the agent's loading among them, are
     * listed but not found). Over one window that is growth, not yet a leak: the finding says how to tell.
     */
    private static void nativeMemoryHeld(Sample now, List<Finding> found) {
        now.nativeCallers().ifPresent(r -> r.sites().stream()
                .filter(s -> s.hasJavaFrame() && s.heldBytes() >= NATIVE_HELD
                        && s.heldBytes() >= NATIVE_HELD_SHARE * s.allocatedBytes())
                .limit(3).forEach(s -> found.add(Finding.warning("native-memory-held", String.format(Locale.ROOT,
                        "%s allocated %s of native memory in %d s and still holds %s of it (%d allocations, %s;"
                        + " %s). Memory a call site keeps taking and never gives back is a leak if it goes on: run"
                        + " --native-callers again, or watch malloc with --watch, to see whether it keeps growing.%s",
                        s.describe(), Bytes.human(s.allocatedBytes()), r.window().toSeconds(), Bytes.human(s.heldBytes()),
                        s.heldCount(), NativeCallers.perMinute(s.heldBytes(), r.window()), NativeCallers.PROFILER,
                        remedy(s))))));
    }

    /**
     * Only with {@code --native-callers}: nothing recorded is held, yet glibc keeps much free memory. That memory
     * was freed and malloc kept it (retention), so the remedy is malloc's settings, not the program's code.
     */
    private static void mallocRetention(Sample now, List<Finding> found) {
        MallocInfo malloc = now.reports().malloc();
        if (now.nativeCallers().isEmpty() || malloc == null || !now.memory().otherAllocators().isEmpty()) {
            return;
        }
        NativeCallers.Result r = now.nativeCallers().get();
        long held = r.sites().stream().filter(NativeCallers.Site::hasJavaFrame).mapToLong(NativeCallers.Site::heldBytes)
                .sum();
        if (held < NATIVE_HELD && malloc.freeBytes() >= RETAINED_BYTES && malloc.freeShare() >= RETAINED_SHARE) {
            found.add(Finding.warning("malloc-retention", String.format(Locale.ROOT, "No Java call site kept native"
                    + " memory in the %d s recorded (%s held, %s allocated; %s), yet glibc's arenas keep %s free"
                    + " (%.1f %% of what they took; malloc_info): memory the program freed and malloc did not give"
                    + " back. That is retention, not a leak: the program's code is not the remedy, malloc's settings"
                    + " are. MALLOC_ARENA_MAX=2 bounds the arenas; `jcmd %d System.trim_native_heap` gives the free"
                    + " pages back now, -XX:TrimNativeHeapInterval=60000 every minute.", r.window().toSeconds(),
                    Bytes.human(held), Bytes.human(r.allocatedBytes()), NativeCallers.PROFILER,
                    Bytes.human(malloc.freeBytes()), 100 * malloc.freeShare(), now.pid())));
        }
    }

    /** What to do for call sites whose remedy is known. */
    private static String remedy(NativeCallers.Site site) {
        if (site.javaFrame().startsWith("java.util.zip.Inflater.") || site.javaFrame().startsWith("java.util.zip.Deflater.")) {
            return " Inflater and Deflater hold zlib's memory until end() (or close(), JDK 25) is called; without it only"
                    + " the GC's Cleaner frees it, after a collection finds them unreachable.";
        }
        return "";
    }
}
