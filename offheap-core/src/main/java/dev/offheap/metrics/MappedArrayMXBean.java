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

package dev.offheap.metrics;

/**
 * A {@code MappedArray} (one {@code .npy} file mapped into memory) as JMX shows it:
 * {@code dev.offheap:type=MappedArray,name=<name>}, the file's name unless another was given. Read live.
 */
public interface MappedArrayMXBean {

    /** {@return the file's path} */
    String getPath();

    /** {@return the number of elements now} */
    long getLength();

    /** {@return the element type, as NumPy names it ({@code float64}, {@code int32}...)} */
    String getElementType();

    /** {@return the bytes of address space its views map now (whole pages), as charged to its budget if it has one} */
    long getMappedBytes();

    /** {@return the number of views mapped and not yet released: one memory mapping each} */
    long getViews();

    /** {@return whether the file is open read-only} */
    boolean isReadOnly();

    /** {@return the path of the budget its mappings are charged to, empty when it has none} */
    String getBudgetPath();
}
