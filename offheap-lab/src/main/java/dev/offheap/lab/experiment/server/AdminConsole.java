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

package dev.offheap.lab.experiment.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongSupplier;

/**
 * The admin channel of the server mains, the same for every configuration: the server prints
 * {@code port=<n>} once it listens, then reads commands on standard input, each answered with a
 * {@link Reading} of its memory on one line. {@code idle} runs the configuration's trim (if it has one), then
 * {@code System.gc()} (so memory freed by Cleaners goes too); {@code collect} runs {@code System.gc()} only,
 * no trim; {@code memory} does nothing but read. {@code stop} or the end of input (the parent died) stops the
 * server. The heap allocated so far, read at the start and the end of a measured run, gives the bytes of heap
 * the server allocated per request.
 */
public final class AdminConsole {
    /** The line a server prints once it accepts connections, followed by the port. */
    public static final String PORT = "port=";
    /** The command that trims and collects. */
    public static final String IDLE = "idle";
    /** The command that collects ({@code System.gc()}) without any trim call. */
    public static final String COLLECT = "collect";
    /** The command that only reads the memory: nothing is trimmed or collected. */
    public static final String MEMORY = "memory";
    /** The first word of every answer but {@code port=}. */
    public static final String ANSWER = "memory";
    /** The command that stops the server. */
    public static final String STOP = "stop";
    /** The answer's field of the RSS in KiB, always there. */
    public static final String RSS_KIB = "rss_kib=";
    /** The answer's field of the allocator's direct memory, always there (-1 if unknown). */
    public static final String ALLOCATOR_BYTES = "allocator_bytes=";
    /**
     * The answer's last field, the heap allocated so far; left out when the server cannot count it (and by
     * servers from before it existed), which a reader takes for -1.
     */
    public static final String HEAP_ALLOCATED_BYTES = "heap_allocated_bytes=";

    /**
     * What a server reports of its memory.
     *
     * @param rssKib             its {@code VmRSS} in KiB
     * @param allocatorBytes     the direct memory its allocator or pool holds in bytes (offheap: the pool's
     *                           {@code bytesFromOs}; Netty's: {@code metric().usedDirectMemory()}; Jetty's
     *                           {@code ArrayByteBufferPool}: {@code getDirectMemory()}), -1 if it cannot say
     * @param heapAllocatedBytes the bytes of Java heap the server allocated since it started, by every thread
     *                           (see {@link HeapAllocated}), -1 if it cannot say
     */
    public record Reading(long rssKib, long allocatorBytes, long heapAllocatedBytes) {
        /** A reading without the heap allocated. */
        public Reading(long rssKib, long allocatorBytes) {
            this(rssKib, allocatorBytes, -1);
        }

        /**
         * The answer line, e.g. {@code memory rss_kib=104000 allocator_bytes=4194304
         * heap_allocated_bytes=2147483648}, without the last field when the heap allocated is unknown.
         */
        public String line() {
            String line = ANSWER + " " + RSS_KIB + rssKib + " " + ALLOCATOR_BYTES + allocatorBytes;
            return heapAllocatedBytes < 0 ? line : line + " " + HEAP_ALLOCATED_BYTES + heapAllocatedBytes;
        }

        /** The reading of an answer line of {@link #line()}, with or without its last field. */
        public static Reading parse(String line) {
            String[] words = line.strip().split("\\s+");
            if (words.length < 3 || words.length > 4 || !words[0].equals(ANSWER)) {
                throw new IllegalArgumentException("not a memory answer: " + line);
            }
            return new Reading(field(words[1], RSS_KIB, line), field(words[2], ALLOCATOR_BYTES, line),
                    words.length == 4 ? field(words[3], HEAP_ALLOCATED_BYTES, line) : -1);
        }

        private static long field(String word, String name, String line) {
            if (!word.startsWith(name)) {
                throw new IllegalArgumentException("expected " + name + " in the memory answer: " + line);
            }
            return Long.parseLong(word.substring(name.length()));
        }
    }

    private AdminConsole() {}

    /** Announces {@code port} on standard output. */
    public static void announce(int port) {
        System.out.println(PORT + port);
        System.out.flush();
    }

    /**
     * Serves commands on standard input until {@code stop} or its end; {@code trim} is the configuration's,
     * {@code allocatorBytes} what its allocator holds (see {@link Reading#allocatorBytes()}).
     */
    public static void serve(Runnable trim, LongSupplier allocatorBytes) throws IOException {
        serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out, trim,
                System::gc, allocatorBytes, () -> ProcMemory.selfKib(ProcMemory.RSS), HeapAllocated::totalBytes);
    }

    /** Serves the commands of {@code in} until {@code stop} or its end, answering on {@code out}. */
    static void serve(BufferedReader in, PrintStream out, Runnable trim, Runnable collect, LongSupplier allocatorBytes,
            LongSupplier rssKib, LongSupplier heapAllocatedBytes) throws IOException {
        for (String line = in.readLine(); line != null && !line.strip().equals(STOP); line = in.readLine()) {
            String command = line.strip();
            if (command.equals(IDLE) || command.equals(COLLECT) || command.equals(MEMORY)) {
                if (command.equals(IDLE)) {
                    trim.run();
                }
                if (!command.equals(MEMORY)) {
                    collect.run();
                }
                out.println(new Reading(rssKib.getAsLong(), allocatorBytes.getAsLong(),
                        heapAllocatedBytes.getAsLong()).line());
                out.flush();
            }
        }
    }

    /** Trims, collects, and returns this process's RSS in KiB (what {@code GET /idle} answers). */
    public static long idle(Runnable trim) {
        trim.run();
        System.gc();
        return ProcMemory.selfKib(ProcMemory.RSS);
    }
}
