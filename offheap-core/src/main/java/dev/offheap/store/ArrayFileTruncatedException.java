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

import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * An access through a view of a {@link MappedArray} reached data that is gone: another process (or another
 * channel of this one) truncated the file while it was mapped. The message names the file, its size now, the
 * size the mapped data needs, and the element; the cause is an {@link ArrayFileException} naming the file,
 * whose own cause is the JDK's report of the fault.
 *
 * <p>Nothing can prevent the truncation (files are not locked), but it never crashes the JVM: the access
 * throws this instead. The view stays open; elements in the part of the file that is left still work.
 */
public final class ArrayFileTruncatedException extends UncheckedIOException {
    private static final long serialVersionUID = 1L;

    /** The file's size in bytes when the fault was seen. */
    private final long fileSize;
    /** Where the view's data ends in the file. */
    private final long neededSize;
    /** The element whose access faulted. */
    private final long index;

    ArrayFileTruncatedException(Path file, long fileSize, long neededSize, long index, InternalError fault) {
        super(file + " was truncated by someone else while mapped: it has " + fileSize + " bytes now, the mapped"
                + " data needs " + neededSize + "; element " + index + " is gone",
                cause(file, fileSize, neededSize, fault));
        this.fileSize = fileSize;
        this.neededSize = neededSize;
        this.index = index;
    }

    private static ArrayFileException cause(Path file, long fileSize, long neededSize, InternalError fault) {
        ArrayFileException cause = new ArrayFileException(file, "truncated by someone else while mapped: it has "
                + fileSize + " bytes now, the mapped data needs " + neededSize);
        cause.initCause(fault);
        return cause;
    }

    /** {@return the file that was truncated} */
    public Path file() {
        return ((ArrayFileException) getCause()).file();
    }

    /** {@return the file's size in bytes when the fault was seen} */
    public long fileSize() {
        return fileSize;
    }

    /** {@return the size in bytes the view's data needs: where its last element ends in the file} */
    public long neededSize() {
        return neededSize;
    }

    /** {@return the element whose access faulted (the first of the range, for a bulk operation)} */
    public long index() {
        return index;
    }
}
