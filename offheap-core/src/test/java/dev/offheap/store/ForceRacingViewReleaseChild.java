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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Run in a child JVM by {@link ForceRacingViewReleaseTest}: a virtual thread calls {@link MappedArray#force()}
 * over and over (its first blocking call is such a force) while a platform thread takes a view, writes through
 * it and releases it, over and over. Then a virtual thread reads a file, which needs the JDK's blocking support
 * for virtual threads to be intact. Prints {@code OK <forces> <views>}.
 *
 * <p>Arguments: a directory, milliseconds to race.
 */
public final class ForceRacingViewReleaseChild {
    private ForceRacingViewReleaseChild() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long millis = Long.parseLong(args[1]);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong forces = new AtomicLong();
        AtomicLong views = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (MappedArray array = MappedArray.create(dir.resolve("raced.npy"), ElementType.INT, 1 << 16)) {
            Thread releaser = Thread.ofPlatform().start(() -> {
                try {
                    while (!stop.get()) {
                        try (IntArray view = array.ints()) {
                            view.set(views.getAndIncrement() & 0xffff, 1);
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            Thread forcer = Thread.ofVirtual().start(() -> {
                try {
                    while (!stop.get()) {
                        array.force();
                        forces.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            Thread.sleep(millis);
            stop.set(true);
            releaser.join();
            forcer.join();
        }
        Path file = Files.writeString(dir.resolve("after.txt"), "still blocking fine");
        AtomicReference<String> read = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            try {
                read.set(Files.readString(file));
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }).join();
        if (failure.get() != null) {
            failure.get().printStackTrace(System.out);
            System.exit(1);
        }
        System.out.println("OK " + forces.get() + " " + views.get() + " " + read.get());
    }
}
