package dev.offheap.os;

import java.lang.foreign.Arena;

/** Portable blocks: one {@code Arena.ofShared()} per block (malloc underneath, zeroed by the JDK). */
final class ArenaMemory implements NativeMemory {
    static final ArenaMemory INSTANCE = new ArenaMemory();

    private ArenaMemory() {}

    @Override
    public NativeRegion allocate(long byteSize) {
        NativeMemory.checkSize(byteSize);
        Arena arena = Arena.ofShared();
        try {
            return new NativeRegion(arena, arena.allocate(byteSize, PAGE_SIZE));
        } catch (RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    @Override
    public String name() {
        return "arena";
    }
}
