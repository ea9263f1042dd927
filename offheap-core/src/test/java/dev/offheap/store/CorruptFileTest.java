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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.zip.CRC32C;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Files that are truncated, corrupt, foreign or of the wrong kind: each is refused with an
 * {@link ArrayFileException} that names the file and the problem, in both modes, and left as it was.
 */
class CorruptFileTest {
    private static final int N = 1000;

    @TempDir
    Path dir;

    private byte[] good;

    @BeforeEach
    void writeAGoodFile() throws IOException {
        Path file = dir.resolve("good.npy");
        try (MappedArray array = MappedArray.create(file, ElementType.DOUBLE, N);
             DoubleArray doubles = array.doubles()) {
            Elements.write(doubles, 0, N);
            array.force();
        }
        good = Files.readAllBytes(file);
    }

    @ParameterizedTest(name = "cut to {0} bytes")
    @CsvSource({
        "0, the file is empty",
        "3, truncated",
        "6, truncated",
        "9, truncated",
        "10, truncated: the header ends at byte 4096 but the file has only 10 bytes",
        "100, truncated",
        "4095, truncated",
        "4096, truncated: 1000 float64 elements need 8000 bytes from byte 4096 on, but the file has only 0",
        "8000, truncated",
        "12095, truncated: 1000 float64 elements need 8000 bytes from byte 4096 on, but the file has only 7999"
    })
    void truncatedFilesAreRefused(int size, String problem) throws IOException {
        Path file = Files.write(dir.resolve("cut.npy"), Arrays.copyOf(good, size));
        assertRefused(file, problem);
    }

    @ParameterizedTest(name = "byte {0}")
    @ValueSource(ints = {12, 30, 60, 65, 70, 96, 103, 200, 4094})
    void aFlippedHeaderByteIsACorruptHeader(int position) throws IOException {
        byte[] bytes = good.clone();
        bytes[position] ^= 0x04;
        Path file = Files.write(dir.resolve("flipped.npy"), bytes);
        assertRefused(file, "header checksum mismatch: corrupt");
    }

    @Test
    void aDamagedMarkOrCommentSignIsRefusedToo() throws IOException {
        int mark = indexOf(good, "offheap-array");
        byte[] bytes = good.clone();
        bytes[mark + 3] ^= 0x01;
        assertRefused(Files.write(dir.resolve("mark.npy"), bytes), "comment that offheap did not write");
        bytes = good.clone();
        bytes[mark - 2] = ' ';
        assertRefused(Files.write(dir.resolve("sign.npy"), bytes), "cannot read the header");
    }

    @Test
    void garbageIsNotAnNpyFile() throws IOException {
        byte[] garbage = new byte[10_000];
        new Random(42).nextBytes(garbage);
        garbage[0] = 0x17;
        assertRefused(Files.write(dir.resolve("garbage.npy"), garbage), "not an .npy file: it starts with 17 ");
        assertRefused(Files.writeString(dir.resolve("text.npy"), "hello, world\n"),
                "not an .npy file: it starts with 68 65 6c 6c 6f 2c 20 77 instead of 93 4e 55 4d 50 59");
    }

    @Test
    void aPngIsNotAnNpyFile() throws IOException {
        byte[] png = HexFormat.of().parseHex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                + "0000000d4944415478da63f8cfc0f01f0005000201a0c9c1c60000000049454e44ae426082");
        assertRefused(Files.write(dir.resolve("image.png"), png), "not an .npy file: it starts with 89 50 4e 47");
    }

    @Test
    void theWrongElementTypeIsRefusedNamingBoth() throws IOException {
        Path file = Files.write(dir.resolve("doubles.npy"), good);
        for (MappedArray.Mode mode : MappedArray.Mode.values()) {
            assertThatThrownBy(() -> MappedArray.open(file, mode, ElementType.FLOAT))
                    .isInstanceOf(ArrayFileException.class)
                    .hasMessage(file + ": holds float64, not float32");
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, ElementType.DOUBLE)) {
            assertThat(array.length()).isEqualTo(N);
        }
    }

    @Test
    void bigEndianDataIsRefused() throws IOException {
        Path file = NpyFiles.write(dir.resolve("be.npy"), NpyFiles.header(1, NpyFiles.dict(">f8", false, "(4,)")),
                new byte[32]);
        assertRefused(file, "holds big-endian float64 ('>f8'), but this machine is little-endian");
        Path bytes = NpyFiles.write(dir.resolve("be-bytes.npy"),
                NpyFiles.header(1, NpyFiles.dict(">i1", false, "(4,)")), new byte[] {1, 2, 3, 4});
        try (MappedArray array = MappedArray.open(bytes, MappedArray.Mode.READ_ONLY);
             ByteArray view = array.bytes()) {
            assertThat(view.toArray(0, 4)).as("bytes have no byte order").containsExactly(1, 2, 3, 4);
        }
    }

    @ParameterizedTest(name = "shape {0}")
    @CsvSource(delimiter = ';', value = {
        "(3, 4); False; holds a 2-dimensional array of float64, shape (3, 4): offheap maps 1-D arrays only",
        "(3, 4); True; holds a 2-dimensional Fortran-order array of float64, shape (3, 4)",
        "(2, 2, 3); False; holds a 3-dimensional array",
        "(); False; holds a 0-dimensional array",
        "(12, 1); False; holds a 2-dimensional array",
        "12; False; shape is 12, not a tuple of integers",
        "[12]; False; shape is [12], not a tuple of integers",
        "(-12,); False; shape (-12,) has a negative length",
        "(12.0,); False; cannot read the header",
        "(99999999999999999999,); False; the integer 99999999999999999999 at position",
        "(2305843009213693952,); False; a length of 2305843009213693952 float64 elements is too large"
    })
    void onlyOneDimensionalArraysAreMapped(String shape, boolean fortranOrder, String problem) throws IOException {
        Path file = NpyFiles.write(dir.resolve("shape.npy"),
                NpyFiles.header(1, NpyFiles.dict("<f8", fortranOrder, shape)), new byte[96]);
        assertRefused(file, problem);
    }

    @Test
    void aOneDimensionalFortranOrderArrayIsTheSameDataAndOpens() throws IOException {
        Path file = NpyFiles.write(dir.resolve("fortran.npy"), NpyFiles.header(1, NpyFiles.dict("<f8", true, "(12,)")),
                NpyFiles.doubles(12));
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE);
             DoubleArray doubles = array.doubles()) {
            assertThat(doubles.get(11)).isEqualTo(5.5);
            array.grow(13);
        }
        assertThat(new String(Files.readAllBytes(file), 10, 60, StandardCharsets.US_ASCII))
                .startsWith(NpyFiles.dict("<f8", true, "(13,)"));
    }

    @ParameterizedTest(name = "descr {0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "'<u4'; holds dtype '<u4', which offheap does not map: it maps int8 ('|i1'), uint8 ('|u1'), bool ('|b1'),"
                + " int16 ('<i2'), uint16 ('<u2'), int32 ('<i4')",
        "'<u8'; holds dtype '<u8'",
        "'|S1'; holds dtype '|S1'",
        "'|u2'; dtype '|u2' has no byte order",
        "'<f2'; holds dtype '<f2'",
        "'<c16'; holds dtype '<c16'",
        "'|O'; holds dtype '|O'",
        "'<U5'; holds dtype '<U5'",
        "'|f8'; dtype '|f8' has no byte order",
        "[('x', '<f8'), ('y', '<i4')]; holds a structured dtype [('x', '<f8'), ('y', '<i4')]",
        "3; descr is 3, not a dtype string",
        "''; descr is '', not a dtype string"
    })
    void unsupportedDtypesAreRefused(String descr, String problem) throws IOException {
        String dict = "{'descr': " + descr + ", 'fortran_order': False, 'shape': (4,), }";
        Path file = NpyFiles.write(dir.resolve("dtype.npy"), NpyFiles.header(1, dict), new byte[64]);
        assertRefused(file, problem);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "{'descr': '<f8', 'shape': (4,), }; must have exactly the keys 'descr', 'fortran_order' and 'shape', not ['descr', 'shape']",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'x': 1}; not ['descr', 'fortran_order', 'shape', 'x']",
        "{'descr': '<f8', 'fortran_order': 0, 'shape': (4,), }; fortran_order is 0, not True or False",
        "['descr', 'fortran_order', 'shape']; the header is not a dict but ['descr', 'fortran_order', 'shape']",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } trailing; unexpected text after the literal",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4,); expected ',' or '}'",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } # note; a comment that offheap did not write ('# note')",
        "{'descr': '<f8', 'fortran_order': false, 'shape': (4,), }; not a literal at position 34 ('false"
    })
    void headersThatAreNotNumpysDictAreRefused(String dict, String problem) throws IOException {
        Path file = NpyFiles.write(dir.resolve("dict.npy"), NpyFiles.header(1, dict), new byte[32]);
        assertRefused(file, problem);
    }

    @Test
    void unsupportedVersionsAndHugeHeadersAreRefused() throws IOException {
        byte[] v4 = NpyFiles.header(2, NpyFiles.dict("<f8", false, "(4,)"));
        v4[6] = 4;
        assertRefused(NpyFiles.write(dir.resolve("v4.npy"), v4, new byte[32]),
                "unsupported .npy format version 4.0 (offheap reads 1.0, 2.0 and 3.0)");
        byte[] v11 = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(4,)"));
        v11[7] = 1;
        assertRefused(NpyFiles.write(dir.resolve("v11.npy"), v11, new byte[32]), "unsupported .npy format version 1.1");
        byte[] huge = NpyFiles.header(2, NpyFiles.dict("<f8", false, "(4,)"));
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 0x7FFF_FFF0);
        assertRefused(NpyFiles.write(dir.resolve("huge.npy"), huge, new byte[32]),
                "the header claims 2147483632 bytes, more than the 1048576 offheap reads");
        byte[] longer = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(4,)"));
        ByteBuffer.wrap(longer).order(ByteOrder.LITTLE_ENDIAN).putShort(8, (short) 60_000);
        assertRefused(NpyFiles.write(dir.resolve("longer.npy"), longer, new byte[32]),
                "truncated: the header ends at byte 60010 but the file has only 160 bytes");
    }

    @Test
    void dataThatIsNotAlignedForItsTypeIsRefused() throws IOException {
        // 10 + 62 = 72 is a multiple of 8 but not of 16...: use 10 + 58 = 68, a multiple of 4 only.
        Path doubles = NpyFiles.write(dir.resolve("odd.npy"),
                NpyFiles.header(1, NpyFiles.dict("<f8", false, "(4,)"), 58), new byte[32]);
        assertRefused(doubles, "the data starts at byte 68, which is not a multiple of 8, the size of float64");
        Path ints = NpyFiles.write(dir.resolve("odd-ints.npy"),
                NpyFiles.header(1, NpyFiles.dict("<i4", false, "(4,)"), 58), new byte[16]);
        try (MappedArray array = MappedArray.open(ints, MappedArray.Mode.READ_ONLY); IntArray view = array.ints()) {
            assertThat(view.length()).isEqualTo(4);
        }
    }

    @Test
    void aFileOfANewerOffheapIsRefusedAsSuch() throws IOException {
        String text = "{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } # offheap-array 2 crc32c=";
        byte[] header = NpyFiles.header(1, text, 4086);
        CRC32C crc = new CRC32C();
        crc.update(header, 0, 10 + text.length());
        byte[] digits = "%08x".formatted(crc.getValue()).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, header, 10 + text.length(), 8);
        assertRefused(NpyFiles.write(dir.resolve("newer.npy"), header, new byte[32]),
                "written by a newer offheap (array file format 2; this version reads format 1)");
    }

    private static int indexOf(byte[] bytes, String text) {
        return new String(bytes, StandardCharsets.ISO_8859_1).indexOf(text);
    }

    /** Refused in both modes with {@code problem} in the message, and the file is not changed. */
    private static void assertRefused(Path file, String problem) throws IOException {
        byte[] before = Files.readAllBytes(file);
        for (MappedArray.Mode mode : MappedArray.Mode.values()) {
            AbstractThrowableAssert<?, ? extends Throwable> refusal =
                    assertThatThrownBy(() -> MappedArray.open(file, mode).close());
            refusal.isInstanceOf(ArrayFileException.class)
                    .hasMessageStartingWith(file + ": ")
                    .hasMessageContaining(problem);
            refusal.extracting(e -> ((ArrayFileException) e).file()).isEqualTo(file);
        }
        assertThat(Files.readAllBytes(file)).as("a refused file is left as it was").isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void anOffheapFileOfEveryTypeOpensWithItsChecksum(ElementType type) throws IOException {
        Path file = dir.resolve(type + ".npy");
        MappedArray.create(file, type, 3).close();
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, type)) {
            assertThat(array.length()).isEqualTo(3);
        }
    }
}
