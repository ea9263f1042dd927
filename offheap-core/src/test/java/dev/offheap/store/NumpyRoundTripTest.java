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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files go both ways between offheap and NumPy: NumPy maps what Java wrote without a copy
 * ({@code np.load(path, mmap_mode='r')}), and Java maps what {@code np.save} wrote. Needs NumPy for
 * {@code /usr/bin/python3} (Debian's python3-numpy), which {@code ./offheap test} installs.
 */
class NumpyRoundTripTest {
    private static final int N = 10_007;

    @TempDir
    Path dir;

    @BeforeAll
    static void numpyIsInstalled() throws Exception {
        Python.requireNumpy("the .npy round trip");
    }

    @Test
    void numpyMapsWhatJavaWroteWithoutACopy() throws Exception {
        List<String> args = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (ElementType type : ElementType.values()) {
            Path file = dir.resolve("java-" + type + ".npy");
            try (MappedArray array = MappedArray.create(file, type, N);
                 TypedArray view = Elements.view(array)) {
                Elements.write(view, 0, N);
                array.force();
                expected.add(type.npyKind() + " " + N + " " + type + " " + sum(view));
            }
            args.add(file + "=" + type.npyKind() + "=" + N);
        }
        Path empty = dir.resolve("java-empty.npy");
        MappedArray.create(empty, ElementType.DOUBLE, 0).close();
        args.add(empty + "=f8=0");
        Path grown = dir.resolve("java-grown.npy");
        try (MappedArray array = MappedArray.create(grown, ElementType.INT, 10)) {
            array.grow(N);
            try (IntArray ints = array.ints()) {
                Elements.write(ints, 0, N);
            }
            array.force();
        }
        args.add(grown + "=i4=" + N);

        String output = python("""
                import sys
                for arg in sys.argv[1:]:
                    path, kind, n = arg.split('=')
                    n = int(n)
                    a = np.load(path, mmap_mode='r')
                    assert isinstance(a, np.memmap), type(a)
                    assert a.offset == 4096, a.offset
                    assert a.dtype == np.dtype(kind), (a.dtype, kind)
                    assert a.dtype.isnative
                    assert a.shape == (n,), a.shape
                    assert np.array_equal(a, expected(kind, n)), path
                    b = np.load(path)
                    assert np.array_equal(b, a)
                    s = a.sum(dtype=np.float64 if a.dtype.kind == 'f' else np.int64)
                    print(kind, n, a.dtype.name, ('%.2f' % s) if a.dtype.kind == 'f' else int(s))
                """, args);
        expected.add("f8 0 float64 0.00");
        expected.add(expected.get(ElementType.INT.ordinal()));
        assertThat(output.lines()).containsExactlyElementsOf(expected);
    }

    @Test
    void javaMapsWhatNumpyWrote() throws Exception {
        python("""
                import sys, os
                d = sys.argv[1]
                for kind in ['f8', 'f4', 'i8', 'i4', 'i2', 'i1']:
                    np.save(os.path.join(d, 'np-' + kind + '.npy'), expected(kind, %d))
                with open(os.path.join(d, 'np-v2.npy'), 'wb') as f:
                    np.lib.format.write_array(f, expected('f8', %d), version=(2, 0))
                np.save(os.path.join(d, 'np-empty.npy'), np.zeros(0, dtype=np.int64))
                np.save(os.path.join(d, 'np-be.npy'), expected('f8', 4).astype('>f8'))
                np.save(os.path.join(d, 'np-2d.npy'), np.zeros((3, 4)))
                np.save(os.path.join(d, 'np-fortran.npy'), np.asfortranarray(np.zeros((3, 4))))
                np.save(os.path.join(d, 'np-u4.npy'), np.zeros(4, dtype=np.uint32))
                np.save(os.path.join(d, 'np-scalar.npy'), np.float64(1.5))
                np.save(os.path.join(d, 'np-object.npy'), np.array([1, 'x'], dtype=object), allow_pickle=True)
                """.formatted(N, N), List.of(dir.toString()));

        for (ElementType type : ElementType.values()) {
            Path file = dir.resolve("np-" + type.npyKind() + ".npy");
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, type);
                 TypedArray view = Elements.view(array)) {
                assertThat(array.length()).isEqualTo(N);
                Elements.check(view, 0, N);
            }
        }
        try (MappedArray array = MappedArray.open(dir.resolve("np-v2.npy"), MappedArray.Mode.READ_ONLY);
             DoubleArray doubles = array.doubles()) {
            assertThat(Files.readAllBytes(array.path())[6]).as("format 2.0").isEqualTo((byte) 2);
            Elements.check(doubles, 0, N);
        }
        try (MappedArray array = MappedArray.open(dir.resolve("np-empty.npy"), MappedArray.Mode.READ_ONLY);
             LongArray longs = array.longs()) {
            assertThat(longs.length()).isZero();
        }
        assertRefused("np-be.npy", "holds big-endian float64 ('>f8')");
        assertRefused("np-2d.npy", "holds a 2-dimensional array of float64, shape (3, 4)");
        assertRefused("np-fortran.npy", "holds a 2-dimensional Fortran-order array of float64, shape (3, 4)");
        assertRefused("np-u4.npy", "holds dtype '<u4', which offheap does not map");
        assertRefused("np-scalar.npy", "holds a 0-dimensional array of float64");
        assertRefused("np-object.npy", "holds dtype '|O', which offheap does not map");
    }

    @Test
    void javaChangesAndGrowsANumpyFileAndNumpyReadsItBack() throws Exception {
        python("""
                import sys
                np.save(sys.argv[1], expected('i8', 100))
                with open(sys.argv[2], 'wb') as f:
                    np.lib.format.write_array(f, expected('f4', 100), version=(2, 0))
                """, List.of(dir.resolve("np-grow.npy").toString(), dir.resolve("np-grow-v2.npy").toString()));
        try (MappedArray array = MappedArray.open(dir.resolve("np-grow.npy"), MappedArray.Mode.READ_WRITE)) {
            array.grow(N);
            try (LongArray longs = array.longs()) {
                Elements.check(longs, 0, 100);
                Elements.write(longs, 100, N);
                longs.set(0, 42);
            }
            array.force();
        }
        try (MappedArray array = MappedArray.open(dir.resolve("np-grow-v2.npy"), MappedArray.Mode.READ_WRITE)) {
            array.grow(N);
            try (FloatArray floats = array.floats()) {
                Elements.write(floats, 100, N);
            }
            array.force();
        }
        String output = python("""
                import sys
                a = np.load(sys.argv[1], mmap_mode='r')
                e = expected('i8', %d)
                e[0] = 42
                assert a.shape == (%d,) and np.array_equal(a, e)
                b = np.load(sys.argv[2], mmap_mode='r')
                assert b.shape == (%d,) and np.array_equal(b, expected('f4', %d)), b[:5]
                print('ok')
                """.formatted(N, N, N, N), List.of(dir.resolve("np-grow.npy").toString(),
                dir.resolve("np-grow-v2.npy").toString()));
        assertThat(output).isEqualTo("ok");
    }

    /** Values over the whole range of each new dtype, the same in the script below and in {@link #newDtypeAt}. */
    private static final String NEW_DTYPES = """
            def new_dtype(kind, n):
                i = np.arange(n, dtype=np.int64)
                if kind == 'u1': return ((i * 7 + 3) % 256).astype(np.uint8)
                if kind == 'b1': return (i % 3 == 1)
                if kind == 'i2': return ((i * 13 - 11) % 65536).astype(np.uint16).view(np.int16)
                if kind == 'u2': return ((i * 257 + 5) % 65536).astype(np.uint16)
                raise ValueError(kind)
            """;

    /** Element {@code i} of {@code new_dtype(kind, n)}, as its unsigned (or bool: 0/1) value. */
    private static int newDtypeAt(NpyDtype dtype, long i) {
        return switch (dtype) {
            case UINT8 -> (int) ((i * 7 + 3) % 256);
            case BOOL -> i % 3 == 1 ? 1 : 0;
            case INT16 -> (short) (i * 13 - 11);
            case UINT16 -> (int) ((i * 257 + 5) % 65536);
            default -> throw new AssertionError(dtype);
        };
    }

    /** Element {@code i} of a view, as its unsigned value for unsigned dtypes. */
    private static int valueOf(NpyDtype dtype, TypedArray view, long i) {
        return switch (view) {
            case ByteArray bytes -> dtype.isUnsigned() ? Byte.toUnsignedInt(bytes.get(i)) : bytes.get(i);
            case ShortArray shorts -> dtype.isUnsigned() ? Short.toUnsignedInt(shorts.get(i)) : shorts.get(i);
            default -> throw new AssertionError(view);
        };
    }

    private static void setValue(TypedArray view, long i, int value) {
        switch (view) {
            case ByteArray bytes -> bytes.set(i, (byte) value);
            case ShortArray shorts -> shorts.set(i, (short) value);
            default -> throw new AssertionError(view);
        }
    }

    private static final List<NpyDtype> NEW = List.of(NpyDtype.UINT8, NpyDtype.BOOL, NpyDtype.INT16, NpyDtype.UINT16);

    @Test
    void javaMapsUint8BoolInt16AndUint16AsNumpyWroteThemAndNumpyReadsBackTheSameDtype() throws Exception {
        python(NEW_DTYPES + """
                import sys, os
                d = sys.argv[1]
                for kind in ['u1', 'b1', 'i2', 'u2']:
                    np.save(os.path.join(d, 'np-new-' + kind + '.npy'), new_dtype(kind, %d))
                    with open(os.path.join(d, 'np-new-v2-' + kind + '.npy'), 'wb') as f:
                        np.lib.format.write_array(f, new_dtype(kind, 100), version=(2, 0))
                np.save(os.path.join(d, 'np-be-i2.npy'), new_dtype('i2', 4).astype('>i2'))
                np.save(os.path.join(d, 'np-be-u2.npy'), new_dtype('u2', 4).astype('>u2'))
                """.formatted(N), List.of(dir.toString()));
        List<String> args = new ArrayList<>();
        for (NpyDtype dtype : NEW) {
            String kind = dtype.descr().substring(1);
            Path file = dir.resolve("np-new-" + kind + ".npy");
            try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE, dtype.elementType());
                 TypedArray view = Elements.view(array)) {
                assertThat(array.dtype()).isEqualTo(dtype);
                assertThat(array.elementType()).isEqualTo(dtype.elementType());
                assertThat(array.length()).isEqualTo(N);
                for (long i = 0; i < N; i++) {
                    assertThat(valueOf(dtype, view, i)).as("%s element %d", dtype, i).isEqualTo(newDtypeAt(dtype, i));
                }
                setValue(view, 0, dtype == NpyDtype.BOOL ? 1 : dtype == NpyDtype.INT16 ? -32768 : 255);
                array.grow(N + 3);
                try (TypedArray grown = Elements.view(array)) {
                    setValue(grown, N + 2, dtype == NpyDtype.BOOL ? 1 : dtype == NpyDtype.INT16 ? 32767
                            : dtype == NpyDtype.UINT16 ? 65535 : 200);
                }
                array.force();
            }
            args.add(file + "=" + kind + "=" + (dtype == NpyDtype.BOOL ? 1 : dtype == NpyDtype.INT16 ? -32768 : 255)
                    + "=" + (dtype == NpyDtype.BOOL ? 1 : dtype == NpyDtype.INT16 ? 32767
                            : dtype == NpyDtype.UINT16 ? 65535 : 200));
            Path v2 = dir.resolve("np-new-v2-" + kind + ".npy");
            try (MappedArray array = MappedArray.open(v2, MappedArray.Mode.READ_ONLY);
                 TypedArray view = Elements.view(array)) {
                assertThat(array.dtype()).isEqualTo(dtype);
                for (long i = 0; i < 100; i++) {
                    assertThat(valueOf(dtype, view, i)).isEqualTo(newDtypeAt(dtype, i));
                }
            }
        }
        assertRefused("np-be-i2.npy", "holds big-endian int16 ('>i2')");
        assertRefused("np-be-i2.npy", "a.astype('<i2')");
        assertRefused("np-be-u2.npy", "holds big-endian uint16 ('>u2')");
        String output = python(NEW_DTYPES + """
                import sys
                for arg in sys.argv[1:]:
                    path, kind, first, last = arg.split('=')
                    a = np.load(path, mmap_mode='r')
                    assert a.dtype == np.dtype(kind), (path, a.dtype, kind)
                    e = np.zeros(%d + 3, dtype=np.dtype(kind))
                    e[:%d] = new_dtype(kind, %d)
                    e[0] = int(first)
                    e[-1] = int(last)
                    assert a.shape == e.shape and np.array_equal(a, e), (path, a[:4], a[-4:])
                    print(a.dtype.name, a.dtype.str)
                """.formatted(N, N, N), args);
        assertThat(output.lines()).containsExactly("uint8 |u1", "bool |b1", "int16 <i2", "uint16 <u2");
    }

    @Test
    void numpyMapsUint8BoolInt16AndUint16FilesThatJavaCreated() throws Exception {
        List<String> args = new ArrayList<>();
        for (NpyDtype dtype : NEW) {
            String kind = dtype.descr().substring(1);
            Path file = dir.resolve("java-new-" + kind + ".npy");
            try (MappedArray array = MappedArray.create(file, dtype, N);
                 TypedArray view = Elements.view(array)) {
                assertThat(array.dtype()).isEqualTo(dtype);
                assertThat(array.toString()).contains(N + " " + dtype);
                for (long i = 0; i < N; i++) {
                    setValue(view, i, newDtypeAt(dtype, i));
                }
                array.force();
            }
            args.add(file + "=" + kind);
        }
        String output = python(NEW_DTYPES + """
                import sys
                for arg in sys.argv[1:]:
                    path, kind = arg.split('=')
                    a = np.load(path, mmap_mode='r')
                    assert isinstance(a, np.memmap) and a.offset == 4096, (type(a), a.offset)
                    assert a.dtype == np.dtype(kind) and a.shape == (%d,), (a.dtype, a.shape)
                    assert np.array_equal(a, new_dtype(kind, %d)), (path, a[:8])
                    print(a.dtype.name, int(a.astype(np.int64).sum()))
                """.formatted(N, N), args);
        List<String> expected = new ArrayList<>();
        for (NpyDtype dtype : NEW) {
            long sum = 0;
            for (long i = 0; i < N; i++) {
                sum += newDtypeAt(dtype, i);
            }
            expected.add(dtype + " " + sum);
        }
        assertThat(output.lines()).containsExactlyElementsOf(expected);
    }

    /** The sum of the elements as the script prints it: exact, since every value is a multiple of 1/4. */
    private static String sum(TypedArray view) {
        double doubles = 0;
        long longs = 0;
        for (long i = 0; i < view.length(); i++) {
            switch (Elements.get(view, i)) {
                case Double d -> doubles += d;
                case Float f -> doubles += f;
                case Number n -> longs += n.longValue();
                default -> throw new AssertionError();
            }
        }
        return view instanceof DoubleArray || view instanceof FloatArray ? String.format(Locale.ROOT, "%.2f", doubles)
                : Long.toString(longs);
    }

    private void assertRefused(String name, String problem) {
        assertThatThrownBy(() -> MappedArray.open(dir.resolve(name), MappedArray.Mode.READ_ONLY))
                .isInstanceOf(ArrayFileException.class)
                .hasMessageContaining(name)
                .hasMessageContaining(problem);
    }

    /** Runs {@code script} after {@link Elements#NUMPY}; fails with its output unless it succeeds. */
    private String python(String script, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Python.PATH, "-c", Elements.NUMPY + script));
        command.addAll(args);
        Python.Result result = Python.run(command, Duration.ofSeconds(60));
        if (result.exitCode() != 0) {
            fail("python failed (exit " + result.exitCode() + "):\n" + result.output() + "\nscript:\n" + script);
        }
        return result.output().strip();
    }
}
