package dev.offheap.store;

import java.lang.foreign.ValueLayout;

/** The element types a store holds, in native byte order, with their NumPy names for {@code .npy} files. */
public enum ElementType {
    BYTE(ValueLayout.JAVA_BYTE, "i1", "int8"),
    /** 16-bit signed integers, {@link ShortArray}: NumPy's int16. */
    SHORT(ValueLayout.JAVA_SHORT, "i2", "int16"),
    INT(ValueLayout.JAVA_INT, "i4", "int32"),
    LONG(ValueLayout.JAVA_LONG, "i8", "int64"),
    FLOAT(ValueLayout.JAVA_FLOAT, "f4", "float32"),
    DOUBLE(ValueLayout.JAVA_DOUBLE, "f8", "float64");

    private final ValueLayout layout;
    private final String npyKind;
    private final String displayName;

    ElementType(ValueLayout layout, String npyKind, String displayName) {
        this.layout = layout;
        this.npyKind = npyKind;
        this.displayName = displayName;
    }

    /** Bytes per element: 1, 2, 4 or 8. */
    public int byteSize() {
        return (int) layout.byteSize();
    }

    /** The element layout in native byte order. */
    public ValueLayout layout() {
        return layout;
    }

    /** NumPy's kind and size without the byte order, e.g. {@code "f8"}. */
    String npyKind() {
        return npyKind;
    }

    /** The name NumPy prints, e.g. {@code "float64"}. */
    @Override
    public String toString() {
        return displayName;
    }

    int shift() {
        return Integer.numberOfTrailingZeros(byteSize());
    }
}
