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

package dev.offheap.os;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** Linux blocks: anonymous private {@code mmap}, returned with {@code munmap} when the region closes. */
final class MmapMemory implements NativeMemory {
    static final MmapMemory INSTANCE = new MmapMemory(OwnedMappings.Owner.UNNAMED);

    private final OwnedMappings.Owner owner;

    private MmapMemory(OwnedMappings.Owner owner) {
        this.owner = owner;
    }

    static boolean isSupported() {
        return Libc.isLinux() && Libc.mmapAvailable();
    }

    @SuppressWarnings("restricted")
    @Override
    public NativeRegion allocate(long byteSize) {
        NativeMemory.checkSize(byteSize);
        long length = NativeMemory.roundToPage(byteSize);
        MemorySegment mapped = Libc.mmapAnonymous(length, owner.describe("anonymous memory"));
        OwnedMappings.add(mapped.address(), length, owner);
        Arena views = Arena.ofShared();
        return new NativeRegion(views, mapped.reinterpret(byteSize, views, null), () -> free(mapped, length));
    }

    /**
     * The pages go back to the kernel at once ({@code MADV_DONTNEED}: no longer resident, no longer offheap's);
     * the addresses stay mapped until the next handshake ({@link Grace}), so a straggling access reads zeros
     * instead of faulting on unmapped memory or reaching memory mapped there by someone else.
     */
    private static void free(MemorySegment mapped, long length) {
        Libc.madvise(mapped, length, Libc.MADV_DONTNEED);
        OwnedMappings.remove(mapped.address(), length);
        Grace.later(() -> Libc.munmap(mapped, length));
    }

    @Override
    public NativeMemory ownedBy(OwnedMappings.Owner owner) {
        return new MmapMemory(owner);
    }

    @Override
    public String name() {
        return "mmap";
    }
}
