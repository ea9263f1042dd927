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
