package dev.offheap.cli.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Resident pages of any address range of a process, from {@code /proc/PID/pagemap}: one 64-bit entry per
 * page, bit 63 set when the page is present in RAM. The same user may read it; without privileges the frame
 * numbers read as zero, but the present bit is there. Only the pages asked for are read.
 */
final class Pagemap implements AutoCloseable {
    static final long PAGE = 4096;
    private static final int ENTRIES_PER_READ = 8192;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(ENTRIES_PER_READ * 8).order(ByteOrder.nativeOrder());

    private Pagemap(FileChannel channel) {
        this.channel = channel;
    }

    static Pagemap open(long pid) throws IOException {
        return new Pagemap(FileChannel.open(Path.of("/proc", Long.toString(pid), "pagemap"), StandardOpenOption.READ));
    }

    /** Bytes of the pages of {@code [start, end)} present in RAM (a page partly inside counts whole). */
    long residentBytes(long start, long end) throws IOException {
        long first = start / PAGE;
        long last = (end + PAGE - 1) / PAGE;
        long present = 0;
        for (long page = first; page < last; ) {
            int entries = (int) Math.min(ENTRIES_PER_READ, last - page);
            buffer.clear().limit(entries * 8);
            long position = page * 8;
            while (buffer.hasRemaining()) {
                int read = channel.read(buffer, position + buffer.position());
                if (read < 0) {
                    throw new IOException("pagemap ended at page 0x" + Long.toHexString(page));
                }
            }
            buffer.flip();
            for (int i = 0; i < entries; i++) {
                if (buffer.getLong() < 0) {
                    present++;
                }
            }
            page += entries;
        }
        return present * PAGE;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
