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
