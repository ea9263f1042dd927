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

import java.lang.foreign.ValueLayout;

/**
 * The element types a store holds, in native byte order, with their NumPy names for {@code .npy} files. A
 * {@code .npy} file's dtype ({@link NpyDtype}) may differ from its views' element type: uint8 and bool files
 * give {@link #BYTE} views, uint16 files {@link #SHORT} views.
 */
public enum ElementType {
    /** 8-bit signed integers, {@link ByteArray}: NumPy's int8 (and the views of uint8 and bool files). */
    BYTE(ValueLayout.JAVA_BYTE, "i1", "int8"),
    /** 16-bit signed integers, {@link ShortArray}: NumPy's int16 (and the views of uint16 files). */
    SHORT(ValueLayout.JAVA_SHORT, "i2", "int16"),
    /** 32-bit signed integers, {@link IntArray}: NumPy's int32. */
    INT(ValueLayout.JAVA_INT, "i4", "int32"),
    /** 64-bit signed integers, {@link LongArray}: NumPy's int64. */
    LONG(ValueLayout.JAVA_LONG, "i8", "int64"),
    /** 32-bit floating point, {@link FloatArray}: NumPy's float32. */
    FLOAT(ValueLayout.JAVA_FLOAT, "f4", "float32"),
    /** 64-bit floating point, {@link DoubleArray}: NumPy's float64. */
    DOUBLE(ValueLayout.JAVA_DOUBLE, "f8", "float64");

    private final ValueLayout layout;
    private final String npyKind;
    private final String displayName;

    ElementType(ValueLayout layout, String npyKind, String displayName) {
        this.layout = layout;
        this.npyKind = npyKind;
        this.displayName = displayName;
    }

    /**
     * Bytes per element: 1, 2, 4 or 8.
     *
     * @return the size of one element
     */
    public int byteSize() {
        return (int) layout.byteSize();
    }

    /**
     * The element layout in native byte order.
     *
     * @return the layout, e.g. {@link ValueLayout#JAVA_SHORT} for {@link #SHORT}
     */
    public ValueLayout layout() {
        return layout;
    }

    /** NumPy's kind and size without the byte order, e.g. {@code "f8"}. */
    String npyKind() {
        return npyKind;
    }

    /**
     * The name NumPy prints, e.g. {@code "float64"}.
     *
     * @return the name
     */
    @Override
    public String toString() {
        return displayName;
    }

    int shift() {
        return Integer.numberOfTrailingZeros(byteSize());
    }
}
