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
        MemorySegment mapped = Libc.mmapAnonymous(length);
        OwnedMappings.add(mapped.address(), length, owner);
        Arena arena = Arena.ofShared();
        // The cleanup runs when the arena closes, after the handshake: no thread can still be reading.
        MemorySegment segment = mapped.reinterpret(byteSize, arena, unmapped -> Libc.munmap(unmapped, length));
        return new NativeRegion(arena, segment);
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
