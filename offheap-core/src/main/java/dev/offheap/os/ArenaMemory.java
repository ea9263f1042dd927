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

    @Override
    public NativeRegion allocate(long byteSize) {
        NativeMemory.checkSize(byteSize);
        Arena arena = Arena.ofShared();
        try {
            MemorySegment block = arena.allocate(byteSize, PAGE_SIZE);
            long start = block.address();
            OwnedMappings.add(start, byteSize, owner);
            // Cleanups run in reverse order: this one before the arena frees the block.
            return new NativeRegion(arena, block.reinterpret(arena, ignored -> OwnedMappings.remove(start, byteSize)));
        } catch (RuntimeException | Error e) {
            arena.close();
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
