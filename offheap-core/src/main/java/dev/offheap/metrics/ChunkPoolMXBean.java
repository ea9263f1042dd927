package dev.offheap.metrics;

/**
 * A {@code ChunkPool} (the store) as JMX shows it: {@code dev.offheap:type=ChunkPool,name=<pool name>}.
 *
 * <p>The {@code Bytes...} figures count memory chunks, the pool's anonymous memory; the {@code Spill...}
 * figures count chunks of its spill file, which live in the page cache. All are read live.
 */
public interface ChunkPoolMXBean {

    /** The pool's name (the {@code ObjectName} may carry a suffix). */
    String getName();

    /** Bytes of memory chunks with memory behind them now, held by arrays or free. */
    long getBytesFromOs();

    /** Bytes of memory chunks held by arrays. */
    long getBytesInUse();

    /** Bytes of memory chunks free for the next array, until {@code trim()}. */
    long getBytesCached();

    /** The most {@code BytesFromOs} ever held at once. */
    long getPeakBytes();

    /** The limit of the memory chunks' budget, -1 when it has none. */
    long getLimitBytes();

    /** The path of the memory chunks' budget. */
    String getBudgetPath();

    /** Always 0: arrays are not watched for leaks. */
    long getLeaks();

    /** Bytes of spill file chunks with space behind them, held by arrays or free; 0 without a spill file. */
    long getSpillBytes();

    /** Bytes of spill file chunks held by arrays. */
    long getSpillBytesInUse();

    /** The spill file's limit, -1 when it has none or there is no spill file. */
    long getSpillLimitBytes();

    /** Arrays not yet released. */
    long getLiveArrays();

    /** Memory mappings the pool's arrays and free chunks hold (Linux), counted against {@code vm.max_map_count}. */
    long getMappings();

    long getChunkSize();

    /**
     * The addresses the pool holds from the OS now, as pairs {@code [start0, end0, start1, end1, ...]} in
     * address order, ends exclusive, reserved addresses included: {@code offheap inspect} counts the pages
     * resident inside them. Changes only when the pool maps or unmaps memory, never per acquire.
     */
    long[] getAddressRanges();
}
