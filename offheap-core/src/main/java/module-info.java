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

/**
 * offheap: native memory that is safe, fast and accountable.
 *
 * <ul>
 *   <li>{@link dev.offheap.buffer} pooled native buffers for I/O ({@code BufferPool}, {@code Buffer}).</li>
 *   <li>{@link dev.offheap.store} typed arrays of any length from pooled chunks, spill files or mapped files
 *       ({@code ChunkPool}, {@code MappedArray}).</li>
 *   <li>{@link dev.offheap.account} memory budgets that every component charges ({@code MemoryBudget}).</li>
 *   <li>{@link dev.offheap.metrics} what pools and budgets show through JMX (their MXBean interfaces, under
 *       the {@code dev.offheap} domain) and the names of their JFR events.</li>
 * </ul>
 *
 * The module calls restricted FFM methods (the Linker, {@code MemorySegment.reinterpret}); run with
 * {@code --enable-native-access=dev.offheap.core} (or {@code ALL-UNNAMED} on the class path) to silence the
 * JDK's warning.
 */
module dev.offheap.core {
    requires java.management;
    requires jdk.jfr;

    exports dev.offheap.buffer;
    exports dev.offheap.account;
    exports dev.offheap.store;
    exports dev.offheap.metrics;
}
