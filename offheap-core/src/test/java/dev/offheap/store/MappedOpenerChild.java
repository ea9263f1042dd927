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
import java.nio.file.Path;

/**
 * Run in a child JVM by {@link MappedArrayLocksAcrossProcessesTest}: opens a file in a mode and says what
 * happened, one line: {@code open} or {@code refused <class> | <message>}. With {@code hold}, it then keeps the
 * file open until its standard input ends, and prints {@code closed}; with {@code try} it closes at once.
 *
 * <p>Arguments: file, {@code READ_WRITE}, {@code READ_ONLY} or {@code SHARED}, {@code hold} or {@code try}.
 */
public final class MappedOpenerChild {
    private MappedOpenerChild() {}

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        MappedArray.Mode mode = MappedArray.Mode.valueOf(args[1]);
        MappedArray array;
        try {
            array = MappedArray.open(file, mode);
        } catch (IOException e) {
            System.out.println("refused " + e.getClass().getSimpleName() + " | " + e.getMessage());
            return;
        }
        System.out.println("open");
        if (args[2].equals("hold")) {
            while (System.in.read() >= 0) {
                // until the parent closes our standard input
            }
        }
        array.close();
        System.out.println("closed");
    }
}
