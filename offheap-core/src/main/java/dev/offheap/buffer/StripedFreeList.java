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

import java.util.ArrayList;
import java.util.List;

/**
 * The shared free slots of one size class: several {@link BatchStack}s (stripes), so that threads that push
 * and pop batches spread over several cache lines instead of meeting on one. A caller names a stripe (its
 * hint); a pop that finds that stripe empty looks at the others before it gives up, so slots pushed anywhere
 * are found before the class grows.
 */
final class StripedFreeList {
    private final BatchStack[] stripes;
    private final int mask;

    StripedFreeList(SizeClassPool slots, int stripeCount) {
        if (Integer.bitCount(stripeCount) != 1) {
            throw new IllegalArgumentException("stripe count must be a power of two: " + stripeCount);
        }
        this.stripes = new BatchStack[stripeCount];
        for (int i = 0; i < stripeCount; i++) {
            stripes[i] = new BatchStack(slots, i);
        }
        this.mask = stripeCount - 1;
    }

    /** Links {@code from[start .. start + n)} into one batch and pushes it onto stripe {@code hint}. */
    void push(Slot[] from, int start, int n, int hint) {
        Slot first = from[start];
        Slot slot = first;
        for (int i = start + 1; i < start + n; i++) {
            slot = slot.link = from[i];
        }
        slot.link = null;
        first.batchSize = n;
        stripes[hint & mask].push(first);
    }

    /** Pushes one slot as a batch of its own onto stripe {@code hint}. */
    void push(Slot slot, int hint) {
        slot.link = null;
        slot.batchSize = 1;
        stripes[hint & mask].push(slot);
    }

    /**
     * One free slot, or null if every stripe is empty: the first of a batch, whose rest goes back onto
     * stripe {@code hint} as a batch of its own.
     */
    Slot popOne(int hint) {
        Slot first = pop(hint);
        if (first != null && first.batchSize > 1) {
            Slot rest = first.link;
            rest.batchSize = first.batchSize - 1;
            stripes[hint & mask].push(rest);
        }
        return first;
    }

    /**
     * Pops whole batches into {@code into[0 ..]} while it holds fewer than {@code atLeast} slots and a stripe
     * has one (stripe {@code hint} first). A batch holds at most {@code atLeast} slots, so {@code into} must
     * hold {@code 2 x atLeast - 1}. Returns the count.
     */
    int popInto(Slot[] into, int atLeast, int hint) {
        int got = 0;
        Slot first;
        while (got < atLeast && (first = pop(hint)) != null) {
            for (Slot s = first; s != null; s = s.link) {
                into[got++] = s;
            }
        }
        return got;
    }

    /** The first slot of a batch, from stripe {@code hint} or else the first non-empty one after it. */
    private Slot pop(int hint) {
        for (int i = 0; i <= mask; i++) {
            BatchStack stripe = stripes[(hint + i) & mask];
            if (!stripe.isEmpty()) {
                Slot first = stripe.pop();
                if (first != null) {
                    return first;
                }
            }
        }
        return null;
    }

    /** Every free slot, popped from all stripes: the caller owns them until it pushes them back. */
    List<Slot> drain() {
        List<Slot> all = new ArrayList<>();
        for (BatchStack stripe : stripes) {
            for (Slot first; (first = stripe.pop()) != null; ) {
                for (Slot s = first; s != null; s = s.link) {
                    all.add(s);
                }
            }
        }
        return all;
    }
}
