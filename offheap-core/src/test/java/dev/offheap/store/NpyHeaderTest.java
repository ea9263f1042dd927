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

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The header on its own: what offheap writes, what it reads back, and that no damaged header passes. */
class NpyHeaderTest {
    private static final Path FILE = Path.of("test.npy");

    @ParameterizedTest
    @EnumSource(ElementType.class)
    void everyHeaderOffheapWritesReadsBackTheSame(ElementType type) throws ArrayFileException {
        long max = NpyHeader.create(type, 0).maxLength();
        for (long length : new long[] {0, 1, 4095, (1L << 31) + 5, max}) {
            NpyHeader header = NpyHeader.create(type, length);
            byte[] block = header.encode(FILE);
            assertThat(block).hasSize(NpyHeader.BLOCK);
            NpyHeader read = NpyHeader.parse(block, NpyHeader.BLOCK + header.dataBytes(), FILE);
            assertThat(read).isEqualTo(header);
            assertThat(read.offheap()).isTrue();
            assertThat(read.dataOffset()).isEqualTo(4096);
        }
        assertThat(NpyHeader.create(type, 1).descr()).isEqualTo(type == ElementType.BYTE ? "|i1" : "<" + type.npyKind());
    }

    @Test
    void everySingleDamagedByteOfAnOffheapHeaderIsRefused() throws ArrayFileException {
        byte[] good = NpyHeader.create(ElementType.DOUBLE, 123_456).encode(FILE);
        long fileSize = NpyHeader.BLOCK + 8L * 123_456;
        int[] masks = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xFF};
        Random random = new Random(7);
        List<String> accepted = new ArrayList<>();
        for (int position = 0; position < good.length; position++) {
            for (int i = 0; i <= masks.length; i++) {
                int mask = i < masks.length ? masks[i] : 1 + random.nextInt(255);
                byte[] bad = good.clone();
                bad[position] ^= (byte) mask;
                try {
                    NpyHeader.parse(bad, fileSize, FILE);
                    accepted.add("byte " + position + " ^ 0x" + Integer.toHexString(mask));
                } catch (ArrayFileException expected) {
                    assertThat(expected).hasMessageStartingWith(FILE + ": ");
                }
            }
        }
        assertThat(accepted).as("damaged headers that were accepted").isEmpty();
    }

    @Test
    void headersAsNumpyWritesThemAreRead() throws ArrayFileException {
        for (int major = 1; major <= 3; major++) {
            byte[] header = NpyFiles.header(major, "{'descr': '<f4', 'fortran_order': False, 'shape': (7,), }");
            NpyHeader read = NpyHeader.parse(header, header.length + 28, FILE);
            assertThat(read).isEqualTo(new NpyHeader(major, 0, header.length, NpyDtype.FLOAT32, "<f4", 7, false,
                    false));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "{'shape': (7,), 'descr': '<i8', 'fortran_order': False}; LONG; 7",
        "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (7L,), }; INT; 7",
        "{ 'descr' : 'i1' ,'fortran_order':False,'shape':( 7 , ) }; BYTE; 7",
        "{'descr': '=f8', 'fortran_order': False, 'shape': (0,), }; DOUBLE; 0",
        "{'descr': '<f8', 'descr': '<i8', 'fortran_order': False, 'shape': (3,)}; LONG; 3",
        "{'descr': '>i1', 'fortran_order': True, 'shape': (+7,), }; BYTE; 7"
    })
    void whateverNumpyAcceptsAsA1DArrayIsRead(String dict, ElementType type, long length) throws ArrayFileException {
        byte[] header = NpyFiles.header(1, dict);
        NpyHeader read = NpyHeader.parse(header, header.length + 64, FILE);
        assertThat(read.type()).isEqualTo(type);
        assertThat(read.length()).isEqualTo(length);
        assertThat(read.offheap()).isFalse();
    }

    @Test
    void aForeignHeaderIsRewrittenInPlaceWhileTheNewLengthFits() throws ArrayFileException {
        String dict = NpyFiles.dict("<f8", false, "(7,)");
        byte[] header = NpyFiles.header(1, dict, 62);
        assertThat(dict.length() + 1).as("four spare bytes").isEqualTo(58);
        NpyHeader read = NpyHeader.parse(header, header.length + 56, FILE);
        byte[] grown = read.withLength(100).encode(FILE);
        assertThat(grown).hasSize(header.length);
        assertThat(new String(grown, 10, grown.length - 10, StandardCharsets.US_ASCII))
                .isEqualTo(NpyFiles.dict("<f8", false, "(100,)") + "  \n");
        assertThat(NpyHeader.parse(read.withLength(10_000).encode(FILE), 72 + 80_000, FILE).length()).isEqualTo(10_000);
        assertThat(NpyHeader.parse(grown, grown.length + 800, FILE).length()).isEqualTo(100);
        assertThatThrownBy(() -> read.withLength(100_000).encode(FILE))
                .isInstanceOf(ArrayFileException.class)
                .hasMessageContaining("no room for the length 100000")
                .hasMessageContaining("MappedArray.create");
    }
}
