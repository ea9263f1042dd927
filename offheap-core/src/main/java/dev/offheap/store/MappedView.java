package dev.offheap.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * One view of a {@link MappedArray}'s file, as its memory knows it: which file, where the view's data ends in
 * it, the bytes it charged, and the lock its arena is closed under ({@link ArrayMemory.FileView#endLock()}).
 * Explains an access that faulted (the file was truncated) and a closed view.
 */
record MappedView(Path path, FileChannel channel, long end, long charge, Object endLock)
        implements ArrayMemory.FileView {

    @Override
    public RuntimeException explainFault(InternalError fault, long index) {
        long size;
        try {
            size = Uninterruptible.call(channel::size);
        } catch (IOException | RuntimeException unknown) { // closed meanwhile: nothing to say
            return null;
        }
        return size < end ? new ArrayFileTruncatedException(path, size, end, index, fault) : null;
    }

    @Override
    public IllegalStateException closed(IllegalStateException cause) {
        return new IllegalStateException("the view of " + path + " is closed (released, or its MappedArray was"
                + " closed)", cause);
    }
}
