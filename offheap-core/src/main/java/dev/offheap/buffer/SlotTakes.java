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

import java.util.concurrent.ThreadLocalRandom;

/**
 * The acquire side of a pool, apart from the release side ({@link SlotReturns}): which slot a thread gets (its
 * cache, else its stripe of the class's shared free list) and whether its lease is sampled. Both kinds of
 * lease take their slots here: a handle ({@link BufferPool#acquire}) and a token ({@link LeaseTokens}).
 */
final class SlotTakes {
    private final SizeClasses classes;
    private final SizeClassPool[] classPools;
    private final ThreadCaches caches;
    private final int leakSampling;
    private final int useAfterReleaseSampling;

    SlotTakes(SizeClasses classes, SizeClassPool[] classPools, ThreadCaches caches, int leakSampling,
            int useAfterReleaseSampling) {
        this.classes = classes;
        this.classPools = classPools;
        this.caches = caches;
        this.leakSampling = leakSampling;
        this.useAfterReleaseSampling = useAfterReleaseSampling;
    }

    int classOf(int size) {
        return classes.indexOf(size);
    }

    SizeClassPool classPool(int cls) {
        return classPools[cls];
    }

    /** The calling thread's cache, or null for a thread without one (a virtual thread, or caches off). */
    ThreadCache cacheOfCurrentThread() {
        ThreadCaches caches = this.caches;
        if (caches == null) {
            return null;
        }
        Thread thread = Thread.currentThread();
        ThreadCache cache = caches.lookup(thread);
        if (cache == null && !thread.isVirtual()) {
            cache = caches.current();
        }
        return cache;
    }

    /** A free slot of class {@code cls} for the calling thread, whose cache is {@code cache} (or null). */
    Slot take(ThreadCache cache, int cls) {
        Slot slot;
        if (cache == null) {
            slot = classPools[cls].takeUncached(ThreadCache.stripeHint(Thread.currentThread()));
        } else {
            slot = cache.take(cls, classPools[cls]);
        }
        if (slot.lender != cache) {
            slot.lender = cache; // only on change: a reference store costs a GC write barrier
        }
        slot.leased = true;
        return slot;
    }

    /**
     * Whether the lease about to be made is sampled: {@link ThreadCache#LEAK}, {@link ThreadCache#USE_AFTER_RELEASE},
     * both or neither. A cache counts its acquires down; without one each lease is drawn at random.
     */
    int samples(ThreadCache cache) {
        if (cache != null) {
            return cache.sample();
        }
        return (sampledAtRandom(leakSampling) ? ThreadCache.LEAK : 0)
                | (sampledAtRandom(useAfterReleaseSampling) ? ThreadCache.USE_AFTER_RELEASE : 0);
    }

    /** Whether a lease that no cache counts (a dedicated one) is sampled for leaks. */
    boolean leakSampledAtRandom() {
        return sampledAtRandom(leakSampling);
    }

    /**
     * Sampling where no thread cache counts acquires down (virtual threads, dedicated leases): each lease with
     * probability 1/interval, as the random gaps of a thread cache ({@link ThreadCache#gap(int)}).
     */
    private static boolean sampledAtRandom(int interval) {
        return interval > 0 && ThreadLocalRandom.current().nextInt(interval) == 0;
    }
}
