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

/**
 * Addresses whose owner is known: a pool of offheap's ({@code AddressRanges} of its MBean), or a region the
 * JVM labels ({@code System.map}, NMT detail). The resident pages inside it belong to {@code part}, whatever
 * mapping of smaps they fall in: the kernel merges neighbouring anonymous mappings, so one mapping can hold
 * a labelled range and a neighbour's pages.
 *
 * @param start first address
 * @param end address after the last
 * @param part the attribution part its pages go to ({@code offheap}, {@code threadStacks}, ...)
 * @param owner who holds it, for the details: a pool's {@code type/name}, a JVM label
 * @param anonymousOnly true when only anonymous mappings count (a JVM label over a mapped file, such as the
 *        CDS archive, leaves the file's pages to program files)
 */
record OwnedRange(long start, long end, String part, String owner, boolean anonymousOnly) {
    OwnedRange {
        if (end <= start) {
            throw new IllegalArgumentException("empty range " + Long.toHexString(start) + "-" + Long.toHexString(end));
        }
    }

    boolean covers(Mapping m) {
        return start <= m.start() && m.end() <= end;
    }
}
