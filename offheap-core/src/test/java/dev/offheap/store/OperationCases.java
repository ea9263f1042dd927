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

package dev.offheap.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The cases of the {@code *OperationsTest}s: every layout at lengths around 64 KiB chunks, pieces and the sort's
 * leaves, each case with a seed of its own, and the workers a seed picks (every core, the caller alone, or an
 * executor of three threads).
 */
final class OperationCases {
    static final long CHUNK = 64 << 10;
    private static final ExecutorService EXECUTOR = Executors.newFixedThreadPool(3, task -> {
        Thread thread = new Thread(task, "operations-test-worker");
        thread.setDaemon(true);
        return thread;
    });

    private OperationCases() {
    }

    /** (layout, length, seed) for elements of {@code elementBytes} bytes. */
    static Stream<Arguments> of(int elementBytes) {
        long chunk = CHUNK / elementBytes;
        long piece = Pieces.PIECE_BYTES / elementBytes;
        long[] lengths = {0, 1, 7, 9, chunk - 1, chunk + 3, piece - 1, piece, piece + 1, 3 * piece + 4097,
                RadixSort.LEAF + 1, 2 * RadixSort.LEAF + 5};
        Stream.Builder<Arguments> cases = Stream.builder();
        int seed = 0;
        for (Layout layout : Layout.values()) {
            for (long length : lengths) {
                cases.add(Arguments.of(layout, length, seed++));
            }
        }
        return cases.build();
    }

    static Workers workers(int seed) {
        return switch (seed % 3) {
            case 0 -> Workers.allCores();
            case 1 -> Workers.callerOnly();
            default -> Workers.on(EXECUTOR, 4);
        };
    }
}
