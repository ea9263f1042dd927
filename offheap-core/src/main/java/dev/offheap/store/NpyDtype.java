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

import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The NumPy dtypes of the {@code .npy} files that {@link MappedArray} maps, each with the {@link ElementType}
 * its views have: the closest Java type, of the same size.
 *
 * <table class="striped">
 * <caption>NumPy dtypes and their views</caption>
 * <thead><tr><th>dtype</th><th>in the header</th><th>view</th><th>values read as</th></tr></thead>
 * <tbody>
 * <tr><td>int8</td><td>{@code '|i1'}</td><td>{@link ByteArray}</td><td>themselves</td></tr>
 * <tr><td>uint8</td><td>{@code '|u1'}</td><td>{@link ByteArray}</td><td>signed bytes: 128 to 255 as -128 to -1</td></tr>
 * <tr><td>bool</td><td>{@code '|b1'}</td><td>{@link ByteArray}</td><td>0 (False) and 1 (True)</td></tr>
 * <tr><td>int16</td><td>{@code '<i2'}</td><td>{@link ShortArray}</td><td>themselves</td></tr>
 * <tr><td>uint16</td><td>{@code '<u2'}</td><td>{@link ShortArray}</td><td>signed shorts: 32768 to 65535 as -32768 to -1</td></tr>
 * <tr><td>int32</td><td>{@code '<i4'}</td><td>{@link IntArray}</td><td>themselves</td></tr>
 * <tr><td>int64</td><td>{@code '<i8'}</td><td>{@link LongArray}</td><td>themselves</td></tr>
 * <tr><td>float32</td><td>{@code '<f4'}</td><td>{@link FloatArray}</td><td>themselves</td></tr>
 * <tr><td>float64</td><td>{@code '<f8'}</td><td>{@link DoubleArray}</td><td>themselves</td></tr>
 * </tbody>
 * </table>
 * (The header shows {@code '>'} instead of {@code '<'} on a big-endian machine: files are in native byte order.)
 *
 * <p><b>Unsigned dtypes</b> hold the same bits as their signed siblings, so a view reads them as Java's
 * signed type: {@link Byte#toUnsignedInt(byte)} and {@link Short#toUnsignedInt(short)} give the unsigned
 * value, and a cast ({@code (byte) 200}, {@code (short) 60_000}) writes one.
 *
 * <p><b>bool</b> holds one byte per element, which NumPy writes as 0 or 1, and a {@link ByteArray} view reads
 * as such. A view writes whatever byte it is given: write only 0 and 1, since NumPy's results for any other
 * byte in a bool array are not defined (some operations take it as True, others compare it with 1).
 *
 * <p>A file keeps its dtype: opening, writing through views, {@link MappedArray#grow growing} and forcing
 * never change the {@code descr} of its header, so a uint8 file stays uint8 for NumPy.
 */
public enum NpyDtype {
    /** 8-bit signed integers, {@code '|i1'}: {@link ByteArray} views. */
    INT8("i1", "int8", ElementType.BYTE),
    /** 8-bit unsigned integers, {@code '|u1'}: {@link ByteArray} views, read as signed bytes. */
    UINT8("u1", "uint8", ElementType.BYTE),
    /** NumPy's bool, one byte of 0 or 1, {@code '|b1'}: {@link ByteArray} views. */
    BOOL("b1", "bool", ElementType.BYTE),
    /** 16-bit signed integers, {@code '<i2'}: {@link ShortArray} views. */
    INT16("i2", "int16", ElementType.SHORT),
    /** 16-bit unsigned integers, {@code '<u2'}: {@link ShortArray} views, read as signed shorts. */
    UINT16("u2", "uint16", ElementType.SHORT),
    /** 32-bit signed integers, {@code '<i4'}: {@link IntArray} views. */
    INT32("i4", "int32", ElementType.INT),
    /** 64-bit signed integers, {@code '<i8'}: {@link LongArray} views. */
    INT64("i8", "int64", ElementType.LONG),
    /** 32-bit floating point, {@code '<f4'}: {@link FloatArray} views. */
    FLOAT32("f4", "float32", ElementType.FLOAT),
    /** 64-bit floating point, {@code '<f8'}: {@link DoubleArray} views. */
    FLOAT64("f8", "float64", ElementType.DOUBLE);

    private static final char NATIVE_ORDER = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? '<' : '>';

    private final String kind;
    private final String displayName;
    private final ElementType elementType;

    NpyDtype(String kind, String displayName, ElementType elementType) {
        this.kind = kind;
        this.displayName = displayName;
        this.elementType = elementType;
    }

    /**
     * The dtype a file of {@code type} has when {@link MappedArray#create(java.nio.file.Path, ElementType, long)}
     * makes it: the signed integer or float of that type ({@link #INT8} for {@link ElementType#BYTE}, and so on).
     *
     * @param type an element type
     * @return the dtype of the same name
     * @throws NullPointerException if {@code type} is null
     */
    public static NpyDtype of(ElementType type) {
        return switch (Objects.requireNonNull(type, "type")) {
            case BYTE -> INT8;
            case SHORT -> INT16;
            case INT -> INT32;
            case LONG -> INT64;
            case FLOAT -> FLOAT32;
            case DOUBLE -> FLOAT64;
        };
    }

    /**
     * The element type of the views of a file of this dtype, e.g. {@link ElementType#BYTE} for {@link #UINT8}.
     *
     * @return the element type, of the same size as the dtype
     */
    public ElementType elementType() {
        return elementType;
    }

    /**
     * Whether this is an unsigned integer dtype ({@link #UINT8}, {@link #UINT16}), whose values views read as
     * Java's signed type.
     *
     * @return true for uint8 and uint16
     */
    public boolean isUnsigned() {
        return kind.charAt(0) == 'u';
    }

    /**
     * The dtype string offheap writes in the header of a new file, in native byte order: e.g. {@code "|u1"}
     * or {@code "<u2"} (NumPy's {@code dtype.str}). A file another tool wrote keeps the string it has, which
     * may spell the same dtype otherwise (e.g. {@code "=u2"}).
     *
     * @return the dtype string
     */
    public String descr() {
        return (elementType.byteSize() == 1 ? '|' : NATIVE_ORDER) + kind;
    }

    /** NumPy's kind and size without the byte order, e.g. {@code "u2"}. */
    String kind() {
        return kind;
    }

    /**
     * The name NumPy prints, e.g. {@code "uint8"}.
     *
     * @return the name
     */
    @Override
    public String toString() {
        return displayName;
    }
}
