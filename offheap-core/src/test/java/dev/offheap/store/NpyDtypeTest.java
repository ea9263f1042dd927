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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every {@link NpyDtype} opens as the closest array type, and a file keeps the dtype string of its header,
 * byte for byte, through every path that writes a header: create, reopen, writes through views, grow, force
 * (files NumPy wrote are in {@link NumpyRoundTripTest}).
 */
class NpyDtypeTest {
    @TempDir
    Path dir;

    /** The dtype string in the file's header, as NumPy reads it. */
    private static String descrIn(Path file) throws IOException {
        String text = new String(Files.readAllBytes(file), 0, 100, StandardCharsets.ISO_8859_1);
        int start = text.indexOf("'descr': ") + "'descr': ".length();
        return text.substring(start + 1, text.indexOf('\'', start + 1));
    }

    @Test
    void eachDtypeHasTheElementTypeOfItsSize() {
        assertThat(Arrays.stream(NpyDtype.values()).map(d -> d + "=" + d.descr().substring(1) + ":" + d.elementType()))
                .containsExactly("int8=i1:int8", "uint8=u1:int8", "bool=b1:int8", "int16=i2:int16", "uint16=u2:int16",
                        "int32=i4:int32", "int64=i8:int64", "float32=f4:float32", "float64=f8:float64");
        for (NpyDtype dtype : NpyDtype.values()) {
            assertThat(dtype.descr()).isEqualTo((dtype.elementType().byteSize() == 1 ? "|" : "<") + dtype.kind());
            assertThat(dtype.isUnsigned()).isEqualTo(dtype == NpyDtype.UINT8 || dtype == NpyDtype.UINT16);
        }
        for (ElementType type : ElementType.values()) {
            assertThat(NpyDtype.of(type).elementType()).isEqualTo(type);
            assertThat(NpyDtype.of(type).toString()).isEqualTo(type.toString());
        }
        assertThatThrownBy(() -> NpyDtype.of(null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest
    @EnumSource(NpyDtype.class)
    void aCreatedFileKeepsItsDtypeThroughWritesGrowForceAndReopening(NpyDtype dtype) throws IOException {
        Path file = dir.resolve(dtype + ".npy");
        try (MappedArray array = MappedArray.create(file, dtype, 10)) {
            assertThat(array.dtype()).isEqualTo(dtype);
            assertThat(array.elementType()).isEqualTo(dtype.elementType());
            assertThat(descrIn(file)).isEqualTo(dtype.descr());
            try (TypedArray view = Elements.view(array)) {
                Elements.write(view, 0, 10);
            }
            array.grow(5000);
            array.force();
            assertThat(descrIn(file)).isEqualTo(dtype.descr());
        }
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThat(array.dtype()).isEqualTo(dtype);
            assertThat(array.length()).isEqualTo(5000);
            try (TypedArray view = Elements.view(array)) {
                Elements.check(view, 0, 10);
                Elements.check(view, 10, 5000, true);
            }
            array.grow(6000);
            array.force();
        }
        assertThat(descrIn(file)).isEqualTo(dtype.descr());
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, dtype.elementType())) {
            assertThat(array.dtype()).isEqualTo(dtype);
            assertThat(array.length()).isEqualTo(6000);
            assertThat(array.toString()).contains("6000 " + dtype);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', value = {
        "|u1; UINT8", "|b1; BOOL", "<i2; INT16", "<u2; UINT16", "=u2; UINT16", "u2; UINT16", "<u1; UINT8",
        "=i2; INT16", "|i1; INT8", "<i4; INT32"})
    void aForeignFileKeepsItsDtypeStringByteForByteWhenGrown(String descr, NpyDtype dtype) throws IOException {
        int size = dtype.elementType().byteSize();
        byte[] header = NpyFiles.header(1, NpyFiles.dict(descr, false, "(4,)"));
        Path file = NpyFiles.write(dir.resolve("foreign.npy"), header, new byte[4 * size]);
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_WRITE)) {
            assertThat(array.dtype()).isEqualTo(dtype);
            try (TypedArray view = Elements.view(array)) {
                Elements.write(view, 0, 4);
            }
            array.grow(9);
            array.force();
        }
        assertThat(descrIn(file)).isEqualTo(descr);
        assertThat(new String(Files.readAllBytes(file), 10, header.length - 10, StandardCharsets.ISO_8859_1))
                .startsWith(NpyFiles.dict(descr, false, "(9,)"));
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY);
             TypedArray view = Elements.view(array)) {
            assertThat(array.dtype()).isEqualTo(dtype);
            Elements.check(view, 0, 4);
            Elements.check(view, 4, 9, true);
        }
    }

    @Test
    void unsignedValuesReadAsSignedAndToUnsignedGivesThemBack() throws IOException {
        try (MappedArray u1 = MappedArray.create(dir.resolve("u1.npy"), NpyDtype.UINT8, 3);
             ByteArray bytes = u1.bytes();
             MappedArray u2 = MappedArray.create(dir.resolve("u2.npy"), NpyDtype.UINT16, 3);
             ShortArray shorts = u2.shorts()) {
            bytes.set(0, (byte) 200);
            bytes.set(1, (byte) 255);
            shorts.set(0, (short) 60_000);
            shorts.set(1, (short) 65_535);
            assertThat(bytes.get(0)).isEqualTo((byte) -56);
            assertThat(Byte.toUnsignedInt(bytes.get(0))).isEqualTo(200);
            assertThat(Byte.toUnsignedInt(bytes.get(1))).isEqualTo(255);
            assertThat(shorts.get(0)).isEqualTo((short) -5536);
            assertThat(Short.toUnsignedInt(shorts.get(0))).isEqualTo(60_000);
            assertThat(Short.toUnsignedInt(shorts.get(1))).isEqualTo(65_535);
        }
        assertThat(Arrays.copyOfRange(Files.readAllBytes(dir.resolve("u1.npy")), 4096, 4099))
                .containsExactly(200, 255, 0);
    }

    @Test
    void aViewOfTheWrongTypeSaysWhichDtypeTheFileHas() throws IOException {
        Path file = dir.resolve("u2.npy");
        try (MappedArray array = MappedArray.create(file, NpyDtype.UINT16, 3)) {
            assertThatThrownBy(array::bytes).isInstanceOf(IllegalStateException.class)
                    .hasMessage("file " + file + " holds uint16 (int16 views), not int8");
            assertThatThrownBy(array::ints).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("holds uint16 (int16 views), not int32");
        }
        assertThatThrownBy(() -> MappedArray.open(file, MappedArray.Mode.READ_ONLY, ElementType.BYTE))
                .isInstanceOf(ArrayFileException.class).hasMessage(file + ": holds uint16 (int16 views), not int8");
        try (MappedArray array = MappedArray.open(file, MappedArray.Mode.READ_ONLY, ElementType.SHORT);
             ShortArray shorts = array.shorts()) {
            assertThat(shorts.length()).isEqualTo(3);
            assertThatThrownBy(() -> shorts.set(0, (short) 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void createByDtypeRefusesBadArguments() {
        Path file = dir.resolve("bad.npy");
        assertThatThrownBy(() -> MappedArray.create(file, (NpyDtype) null, 3)).isInstanceOf(NullPointerException.class)
                .hasMessage("dtype");
        assertThatThrownBy(() -> MappedArray.create(file, NpyDtype.BOOL, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("a mapped array of -1 bool elements");
        assertThat(file).doesNotExist();
    }

    @Test
    void theMappedArrayClosedSaysSo() throws IOException {
        MappedArray array = MappedArray.create(dir.resolve("closed.npy"), NpyDtype.BOOL, 3);
        array.close();
        assertThatThrownBy(array::dtype).isInstanceOf(IllegalStateException.class).hasMessageContaining("is closed");
        assertThatThrownBy(array::shorts).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shortsOfATruncatedFileAreRefusedWithTheSizes() throws IOException {
        Path file = dir.resolve("cut.npy");
        try (MappedArray array = MappedArray.create(file, NpyDtype.INT16, 4096)) {
            try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
                channel.truncate(4096 + 100);
            }
            assertThatThrownBy(array::shorts).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(ArrayFileException.class).hasMessageContaining("truncated by someone else");
        }
    }
}
