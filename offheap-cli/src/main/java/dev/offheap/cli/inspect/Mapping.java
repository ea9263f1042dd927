package dev.offheap.cli.inspect;

/**
 * One mapping of {@code /proc/PID/smaps}, sizes in bytes.
 *
 * @param start first address
 * @param end address after the last byte
 * @param permissions {@code rw-p}, {@code ---p}, {@code r-xs}...
 * @param path the file, a pseudo path such as {@code [heap]} or {@code [stack]}, or empty for anonymous memory
 * @param rss resident bytes
 * @param anonymous resident bytes that are anonymous (including copied-on-write pages of private file mappings)
 * @param shared resident bytes also mapped by another process ({@code Shared_Clean + Shared_Dirty})
 */
record Mapping(long start, long end, String permissions, String path, long rss, long anonymous, long shared) {

    long size() {
        return end - start;
    }

    boolean isAnonymous() {
        return path.isEmpty() || path.startsWith("[anon:");
    }

    boolean isInaccessible() {
        return permissions.startsWith("---");
    }

    boolean isSharedMapping() {
        return permissions.endsWith("s");
    }
}
