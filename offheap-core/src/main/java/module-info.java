/**
 * offheap: native memory that is safe, fast and accountable.
 *
 * <ul>
 *   <li>{@link dev.offheap.buffer} pooled native buffers for I/O ({@code BufferPool}, {@code Buffer}).</li>
 *   <li>{@link dev.offheap.store} typed arrays of any length from pooled chunks, spill files or mapped files
 *       ({@code ChunkPool}, {@code MappedArray}).</li>
 *   <li>{@link dev.offheap.account} memory budgets that every component charges ({@code MemoryBudget}).</li>
 * </ul>
 *
 * The module calls restricted FFM methods (the Linker, {@code MemorySegment.reinterpret}); run with
 * {@code --enable-native-access=dev.offheap.core} (or {@code ALL-UNNAMED} on the class path) to silence the
 * JDK's warning.
 */
module dev.offheap.core {
    exports dev.offheap.buffer;
    exports dev.offheap.account;
    exports dev.offheap.store;
}
