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

import java.io.IOException;

/**
 * Runs file operations with the calling thread's interrupt status cleared, and sets it again afterwards. A
 * {@code FileChannel} closes itself for every thread when an interrupted thread uses it, and JDK 25 sets the
 * interrupt status of any thread that was inside an access to a shared arena's memory when another thread
 * closed the arena (a view released or a {@link MappedArray} closed under it, an array of a pool released):
 * without this, releasing a view in one thread could close the file of a mapped array, or a pool's spill
 * file ({@link ChannelChunks}), for all of them. An interrupt that arrives while the
 * operation blocks still closes the channel, as the JDK decides.
 */
final class Uninterruptible {
    private Uninterruptible() {}

    @FunctionalInterface
    interface FileCall<T> {
        T call() throws IOException;
    }

    static <T> T call(FileCall<T> call) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            return call.call();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
