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

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An estimate of the GC's side tables where no NMT counts them: G1 commits, for each committed heap region, a
 * mark bitmap (one bit per 8 bytes: 1/64 of the region), a card table and a block offset table (one byte per
 * 512 bytes each); before JDK 20 it kept two mark bitmaps and a card counts table too. So the tables are a fixed
 * share of the committed heap: 10/512 since JDK 20, 19/512 before. A bound on what is resident, not a figure:
 * after a full collection the pages NMT detail labels GC were 0.9-1.1x the estimate on JDK 25 and 0.65-1.0x on
 * JDK 17 (heaps of 17 MiB to 1 GiB; {@code GcTablesEstimateTest}), but a committed heap little used leaves most
 * of its tables untouched (DuckDB's target: 1 MiB resident of a 9.5 MiB estimate), so the estimate only labels
 * memory nothing else explains. NMT's own committed GC figure is no guide: it counts G1's mark stack and task
 * queues, 30-50 MiB committed and barely touched. Other collectors are not estimated.
 */
final class GcTables {
    private static final Pattern FEATURE = Pattern.compile(" VM (\\d+)");
    private static final int G1_SHARES_PER_512 = 10;
    private static final int G1_SHARES_PER_512_BEFORE_20 = 19;

    private GcTables() {}

    /**
     * The bytes of G1's side tables for {@code heapCommitted}, or -1 for another collector or an unknown JDK.
     *
     * @param heapInfo {@code GC.heap_info}'s output
     * @param vm the JVM's name and version ({@code OpenJDK 64-Bit Server VM 25.0.3+9-LTS})
     */
    static long estimate(String heapInfo, String vm, long heapCommitted) {
        Matcher feature = FEATURE.matcher(vm);
        if (heapCommitted <= 0 || !heapInfo.contains("garbage-first heap") || !feature.find()) {
            return -1;
        }
        int shares = Integer.parseInt(feature.group(1)) >= 20 ? G1_SHARES_PER_512 : G1_SHARES_PER_512_BEFORE_20;
        return heapCommitted / 512 * shares;
    }

    /** How the estimate is made, for a part's source. */
    static String how(String vm) {
        Matcher feature = FEATURE.matcher(vm);
        boolean before20 = feature.find() && Integer.parseInt(feature.group(1)) < 20;
        return before20 ? "G1's two mark bitmaps, card table, card counts and block offset tables, 19/512 of the committed heap"
                : "G1's mark bitmap, card table and block offset table, 10/512 of the committed heap";
    }
}
