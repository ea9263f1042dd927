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

import java.util.SplittableRandom;

/** The bytes every server answers with: the same pseudo-random content for every configuration. */
final class Body {
    /** The largest body a server is asked for. */
    static final int MAX = 16 << 20;

    private Body() {}

    /** {@code size} bytes of fixed content. */
    static byte[] of(int size) {
        if (size < 0 || size > MAX) {
            throw new IllegalArgumentException("body of " + size + " bytes: expected 0 to " + MAX);
        }
        byte[] bytes = new byte[size];
        new SplittableRandom(13).nextBytes(bytes);
        return bytes;
    }
}
