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
 * A file that {@link MappedArray} refuses to map: not an {@code .npy} file, truncated, corrupt, or holding
 * something other than what offheap maps or the caller expects. The message names the file and the problem.
 */
public final class ArrayFileException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    ArrayFileException(Path file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    /** {@return the file refused} */
    public Path file() {
        return file;
    }
}
