package dev.offheap.cli.inspect;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The target's resident memory as the kernel sees it ({@code /proc/PID/smaps}), bytes.
 *
 * @param rss resident bytes, the sum over all mappings
 * @param anonymous resident anonymous pages (private memory no file backs)
 * @param fileBacked resident pages of files (the kernel can drop clean ones under pressure)
 * @param sharedMemory resident pages of shared memory (memfd, {@code /dev/shm}, shared anonymous)
 * @param sharedWithOthers resident pages also mapped by another process (libraries, mostly)
 * @param byKind resident bytes per {@link MappingKind}
 * @param mappings how many mappings
 * @param otherAllocator the file of a malloc replacement the target maps (jemalloc, tcmalloc, mimalloc), or null
 */
record ProcessMemory(long rss, long anonymous, long fileBacked, long sharedMemory, long sharedWithOthers,
        Map<MappingKind, Long> byKind, int mappings, String otherAllocator) {
    private static final Pattern ALLOCATOR = Pattern.compile("lib(jemalloc|tcmalloc|mimalloc)[^/]*$");

    long of(MappingKind kind) {
        return byKind.getOrDefault(kind, 0L);
    }

    static ProcessMemory of(List<Mapping> mappings, MappingClassifier classifier) {
        long rss = 0;
        long anonymous = 0;
        long shmem = 0;
        long shared = 0;
        String allocator = null;
        Map<MappingKind, Long> byKind = new EnumMap<>(MappingKind.class);
        for (MappingKind kind : MappingKind.values()) {
            byKind.put(kind, 0L);
        }
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            MappingKind kind = classifier.kind(mappings, i);
            byKind.merge(kind, m.rss(), Long::sum);
            rss += m.rss();
            if (allocator == null && ALLOCATOR.matcher(m.path()).find()) {
                allocator = m.path();
            }
            anonymous += m.anonymous();
            shared += m.shared();
            if (m.isSharedMapping() && (m.isAnonymous() || kind == MappingKind.SHARED_MEMORY || kind == MappingKind.JAVA_HEAP)) {
                shmem += m.rss();
            }
        }
        return new ProcessMemory(rss, anonymous, Math.max(0, rss - anonymous - shmem), shmem, shared,
                Collections.unmodifiableMap(byKind), mappings.size(), allocator);
    }
}
