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

/** Portable blocks: one {@code Arena.ofShared()} per block (malloc underneath, zeroed by the JDK). */
final class ArenaMemory implements NativeMemory {
    static final ArenaMemory INSTANCE = new ArenaMemory(OwnedMappings.Owner.UNNAMED);

    private final OwnedMappings.Owner owner;

    private ArenaMemory(OwnedMappings.Owner owner) {
        this.owner = owner;
    }

    @SuppressWarnings("restricted")
    @Override
    public NativeRegion allocate(long byteSize) {
        NativeMemory.checkSize(byteSize);
        Arena backing = Arena.ofShared();
        try {
            if (Faults.errnoFor(Faults.Call.MMAP) != 0) {
                throw new OutOfMemoryError("Unable to allocate " + byteSize + " bytes"); // as malloc refusing
            }
            MemorySegment block = backing.allocate(byteSize, PAGE_SIZE);
            long start = block.address();
            OwnedMappings.add(start, byteSize, owner);
            // Cleanups run in reverse order: this one before the arena frees the block.
            block.reinterpret(backing, ignored -> OwnedMappings.remove(start, byteSize));
            Arena views = Arena.ofShared();
            MemorySegment segment = MemorySegment.ofAddress(start).reinterpret(byteSize, views, null);
            // The backing arena is never handed out, so it always closes; its handshake is the views' grace.
            return new NativeRegion(views, segment, () -> Grace.endViews(backing));
        } catch (OutOfMemoryError e) {
            backing.close();
            OutOfMemoryError named = new OutOfMemoryError(owner.describe("memory") + ": " + e.getMessage());
            named.initCause(e);
            throw named;
        } catch (RuntimeException | Error e) {
            backing.close();
            throw e;
        }
    }

    @Override
    public NativeMemory ownedBy(OwnedMappings.Owner owner) {
        return new ArenaMemory(owner);
    }

    @Override
    public String name() {
        return "arena";
    }
}
