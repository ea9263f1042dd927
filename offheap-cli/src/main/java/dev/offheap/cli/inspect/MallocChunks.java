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

package dev.offheap.cli.inspect;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The chunks glibc's malloc mapped on their own (allocations above its mmap threshold: direct buffers of a
 * MiB, zlib's and zstd's contexts, FFM arenas' blocks), found by their headers where malloc put them, so that
 * malloc's part counts their resident pages on every JDK (JDK 17 has no {@code malloc_info} to bound them by).
 *
 * <p>Such a chunk starts a page: {@code prev_size} 0, then its size, a multiple of the page, with the
 * {@code IS_MMAPPED} flag (2) and no other. Only resident pages are read ({@code /proc/PID/pagemap} says which),
 * through {@code /proc/PID/mem}, which the kernel lets only a user allowed to trace the target read; reading
 * changes nothing in the target. Where it cannot be read, {@link #find} says so and the chunks stay with the
 * anonymous memory the parts take by elimination.
 */
final class MallocChunks {
    private static final long PAGE = Pagemap.pageSize();
    private static final long IS_MMAPPED = 2;
    private static final long PRESENT = 1L << 63;
    private static final int PAGES_PER_READ = 8192;

    private MallocChunks() {}

    /**
     * The chunks inside {@code candidates} (anonymous read-write mappings no other part owns), or empty with
     * the reason when the target's memory cannot be read.
     */
    static Result find(long pid, List<Mapping> candidates) {
        List<AddressRange> chunks = new ArrayList<>();
        Path proc = TargetProcess.proc(pid);
        try (FileChannel mem = FileChannel.open(proc.resolve("mem"), StandardOpenOption.READ);
             FileChannel pagemap = FileChannel.open(proc.resolve("pagemap"), StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
            ByteBuffer entries = ByteBuffer.allocate(PAGES_PER_READ * 8).order(ByteOrder.nativeOrder());
            for (Mapping m : candidates) {
                boolean[] present = present(pagemap, entries, m);
                long at = m.start();
                while (at < m.end()) {
                    int page = (int) ((at - m.start()) / PAGE);
                    long size = present[page] ? chunkAt(mem, header, at) : 0;
                    if (size > 0 && at + size <= m.end()) {
                        chunks.add(new AddressRange(at, at + size));
                        at += size;
                    } else {
                        at += PAGE;
                    }
                }
            }
        } catch (IOException | SecurityException e) {
            return new Result(Optional.empty(), "cannot read the target's memory (/proc/" + pid + "/mem: "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()) + "); it needs the right to trace it");
        }
        return new Result(Optional.of(chunks), null);
    }

    /**
     * What {@link #find} found.
     *
     * @param chunks the chunks' ranges, or empty when the memory could not be read
     * @param problem why not, or null
     */
    record Result(Optional<List<AddressRange>> chunks, String problem) {
        static final Result NOT_LOOKED = new Result(Optional.empty(), "not looked for");
    }

    /** The chunk's size if a chunk mapped on its own starts at {@code at}, else 0. */
    private static long chunkAt(FileChannel mem, ByteBuffer header, long at) throws IOException {
        header.clear();
        while (header.hasRemaining()) {
            if (mem.read(header, at + header.position()) < 0) {
                return 0;
            }
        }
        long prevSize = header.getLong(0);
        long head = header.getLong(8);
        long size = head & ~7L;
        return prevSize == 0 && (head & 7) == IS_MMAPPED && size >= PAGE && size % PAGE == 0 ? size : 0;
    }

    private static boolean[] present(FileChannel pagemap, ByteBuffer entries, Mapping m) throws IOException {
        int pages = (int) ((m.end() - m.start()) / PAGE);
        boolean[] present = new boolean[pages];
        for (int done = 0; done < pages; ) {
            int n = Math.min(PAGES_PER_READ, pages - done);
            entries.clear().limit(n * 8);
            long position = (m.start() / PAGE + done) * 8;
            while (entries.hasRemaining()) {
                if (pagemap.read(entries, position + entries.position()) < 0) {
                    break;
                }
            }
            entries.flip();
            for (int i = 0; entries.remaining() >= 8; i++) {
                present[done + i] = (entries.getLong() & PRESENT) != 0;
            }
            done += n;
        }
        return present;
    }
}
