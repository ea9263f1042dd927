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
 * A file that {@link MappedArray} cannot open now because another opener has it: a file is open
 * {@code READ_WRITE} by one opener at a time, or {@code READ_ONLY} by any number, in this JVM and across the
 * processes that lock it. The message names the file, the mode asked for and the other opener: in this JVM, its
 * mode, its path (a link may name the same file) and its thread, with the stack that opened it as the cause;
 * in another process, the kind of lock it holds.
 */
public final class FileInUseException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** Whether another process holds the file (a lock refused), not another opener of this JVM. */
    private final boolean elsewhere;

    FileInUseException(Path file, String problem, boolean elsewhere, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
        this.elsewhere = elsewhere;
    }

    /** {@return the file that could not be opened} */
    public Path file() {
        return file;
    }

    /** {@return true if another process holds the file, false if another opener in this JVM does} */
    public boolean byAnotherProcess() {
        return elsewhere;
    }
}
