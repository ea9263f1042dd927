package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.offheap.suite.Waits;
import java.io.IOException;
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
    private static final String PYTHON = "/usr/bin/python3";
    private static final int N = 10_007;

    @TempDir
    Path dir;

    @BeforeAll
    static void numpyIsInstalled() throws Exception {
        Result result = run(List.of(PYTHON, "-c", "import numpy; print(numpy.__version__)"));
        if (result.exitCode != 0) {
            fail("NumPy for " + PYTHON + " is missing, so the .npy round trip cannot be checked. Run"
                    + " ./offheap test, which installs it (the Debian package python3-numpy), or install it with"
                    + " apt-get install python3-numpy. " + PYTHON + " said: " + result.output);
        }
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
        List<String> command = new ArrayList<>(List.of(PYTHON, "-c", Elements.NUMPY + script));
        command.addAll(args);
        Result result = run(command);
        if (result.exitCode != 0) {
            fail("python failed (exit " + result.exitCode + "):\n" + result.output + "\nscript:\n" + script);
        }
        return result.output.strip();
    }

    private record Result(int exitCode, String output) {}

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        }
        Waits.Finished finished = Waits.finish(process, Duration.ofSeconds(60), String.join(" ", command));
        return new Result(finished.exitCode(), finished.output());
    }
}
