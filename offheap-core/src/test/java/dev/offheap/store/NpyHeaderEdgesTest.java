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

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The header at its limits: preambles of exactly the sizes that decide, the largest header, the text encoding of
 * each format version, a comment quoted up to its 80 characters, a foreign header rewritten with not one byte
 * to spare, values named as Python prints them, and a header read through reads that come short or empty.
 */
class NpyHeaderEdgesTest {
    private static final Path FILE = Path.of("edge.npy");

    @TempDir
    Path dir;

    private static void refused(byte[] head, long fileSize, String problem) {
        assertThatThrownBy(() -> NpyHeader.parse(head, fileSize, FILE)).isInstanceOf(ArrayFileException.class)
                .hasMessage(FILE + ": " + problem);
    }

    private static byte[] preamble(int major, int minor, long headerLength) {
        ByteBuffer out = ByteBuffer.allocate(major == 1 ? 10 : 12).order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, (byte) minor});
        if (major == 1) {
            out.putShort((short) headerLength);
        } else {
            out.putInt((int) headerLength);
        }
        return out.array();
    }

    @Test
    void eightBytesAreEnoughToReadTheVersion() {
        byte[] nine = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 9, 0};
        refused(nine, 8, "unsupported .npy format version 9.0 (offheap reads 1.0, 2.0 and 3.0)");
        refused(java.util.Arrays.copyOf(nine, 7), 7, "truncated: 7 bytes, less than an .npy preamble");
        byte[] two = java.util.Arrays.copyOf(preamble(2, 0, 100), 10);
        refused(two, 10, "truncated: 10 bytes, less than an .npy preamble");
        refused(java.util.Arrays.copyOf(preamble(2, 0, 100), 11), 11, "truncated: 11 bytes, less than an .npy preamble");
    }

    @Test
    void aHeaderOfOneMebibyteIsReadOneByteMoreIsNot() {
        refused(preamble(2, 0, 1 << 20), 112, "truncated: the header ends at byte 1048588 but the file has only 112 bytes");
        refused(preamble(2, 0, (1 << 20) + 1), 112, "the header claims 1048577 bytes, more than the 1048576 offheap"
                + " reads: corrupt, or not an array file");
        refused(preamble(3, 0, 0xFFFF_FFFFL), 112, "the header claims 4294967295 bytes, more than the 1048576 offheap"
                + " reads: corrupt, or not an array file");
    }

    @Test
    void formatThreeIsUtf8AndTheOthersAreLatin1() {
        // NpyFiles writes the text as Latin-1: "Ã©" is the two bytes of "é" in UTF-8
        byte[] utf8 = NpyFiles.header(3, NpyFiles.dict("\u00c3\u00a9", false, "(3,)"));
        refused(utf8, utf8.length + 3, "holds dtype 'é', which offheap does not map: it maps int8 ('|i1'), uint8"
                + " ('|u1'), bool ('|b1'), int16 ('<i2'), uint16 ('<u2'), int32 ('<i4'), int64 ('<i8'), float32 ('<f4')"
                + " and float64 ('<f8')");
        byte[] latin1 = NpyFiles.header(1, NpyFiles.dict("\u00e9", false, "(3,)"));
        refused(latin1, latin1.length + 3, "holds dtype 'é', which offheap does not map: it maps int8 ('|i1'), uint8"
                + " ('|u1'), bool ('|b1'), int16 ('<i2'), uint16 ('<u2'), int32 ('<i4'), int64 ('<i8'), float32 ('<f4')"
                + " and float64 ('<f8')");
    }

    @Test
    void offheapsMarkAtTheVeryStartIsCheckedLikeAnyOther() {
        byte[] head = NpyFiles.header(1, "# offheap-array 1 crc32c=00000000\n"
                + NpyFiles.dict("<f8", false, "(3,)"));
        assertThat(head.length).isEqualTo(128);
        refused(head, 128 + 24, "header checksum mismatch: corrupt (an offheap header must be format 1.0 with 4096"
                + " bytes, this one is 1.0 with 128)");
    }

    @Test
    void aForeignCommentIsQuotedWholeUpTo80Characters() {
        String eighty = "c".repeat(80);
        byte[] whole = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(3,)") + " #" + eighty);
        refused(whole, whole.length + 24, "the header has a comment that offheap did not write ('#" + eighty
                + "'): corrupt, or written by another tool");
        byte[] longer = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(3,)") + " #" + eighty + "d");
        refused(longer, longer.length + 24, "the header has a comment that offheap did not write ('#"
                + "c".repeat(77) + "...'): corrupt, or written by another tool");
    }

    @Test
    void valuesInMessagesAreWrittenAsPythonWould() {
        String none = "{'descr': '<f8', 'fortran_order': None, 'shape': (3,)}";
        byte[] head = NpyFiles.header(1, none);
        refused(head, head.length + 24, "fortran_order is None, not True or False");
        head = NpyFiles.header(1, "{'descr': {'a': 1, 'b': 'x'}, 'fortran_order': False, 'shape': (3,)}");
        refused(head, head.length + 24, "descr is {'a': 1, 'b': 'x'}, not a dtype string such as '<f8'");
        head = NpyFiles.header(1, NpyFiles.dict("<f8", false, "('a',)"));
        refused(head, head.length + 24, "shape is ('a',), not a tuple of integers");
        head = NpyFiles.header(1, NpyFiles.dict("<f8", false, "(1, True)"));
        refused(head, head.length + 24, "shape is (1, True), not a tuple of integers");
        head = NpyFiles.header(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,)}");
        refused(head, head.length + 24, "holds a structured dtype [('a', '<f8')]: offheap maps plain arrays of int8"
                + " ('|i1'), uint8 ('|u1'), bool ('|b1'), int16 ('<i2'), uint16 ('<u2'), int32 ('<i4'), int64 ('<i8'),"
                + " float32 ('<f4') and float64 ('<f8') only");
        head = NpyFiles.header(1, "['descr', 'fortran_order', 'shape']");
        refused(head, head.length, "the header is not a dict but ['descr', 'fortran_order', 'shape']");
    }

    @Test
    void aForeignHeaderWithoutASpareByteTakesALengthOfAsManyDigitsAndNoMore() throws ArrayFileException {
        String dict = NpyFiles.dict("|i1", false, "(7,)");
        byte[] exact = NpyFiles.header(1, dict, dict.length() + 1);
        assertThat(exact).hasSize(68);
        NpyHeader read = NpyHeader.parse(exact, 68 + 7, FILE);
        byte[] eight = read.withLength(8).encode(FILE);
        assertThat(new String(eight, 10, 58, StandardCharsets.US_ASCII))
                .isEqualTo("{'descr': '|i1', 'fortran_order': False, 'shape': (8,), }\n");
        assertThat(NpyHeader.parse(eight, 68 + 8, FILE).length()).isEqualTo(8);
        assertThatThrownBy(() -> read.withLength(10).encode(FILE)).isInstanceOf(ArrayFileException.class)
                .hasMessage(FILE + ": the .npy header has no room for the length 10 (it was written by another tool"
                        + " with 58 bytes of header): copy the data into a file made by MappedArray.create to grow it");
    }

    @Test
    void aFileOneByteShortOfItsDataSaysHowManyItHas() throws ArrayFileException {
        byte[] block = NpyHeader.create(ElementType.LONG, 10).encode(FILE);
        refused(block, 4096 + 79, "truncated: 10 int64 elements need 80 bytes from byte 4096 on, but the file has"
                + " only 79");
        assertThat(NpyHeader.parse(block, 4096 + 80, FILE).length()).isEqualTo(10);
    }

    @Test
    void aHeaderReadInShortAndEmptyReadsIsTheSame() throws IOException {
        Path file = dir.resolve("trickle.npy");
        MappedArray.create(file, ElementType.LONG, 10).close();
        try (FileChannel real = FileChannel.open(file, StandardOpenOption.READ)) {
            assertThat(NpyHeader.read(new Trickle(real, real.size()), file)).isEqualTo(NpyHeader.create(ElementType.LONG, 10));
        }
    }

    @Test
    void aFileThatEndsBeforeItsHeaderIsReadIsAnEndOfFile() throws IOException {
        Path file = dir.resolve("short.npy");
        MappedArray.create(file, ElementType.LONG, 10).close();
        try (FileChannel real = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            real.truncate(100);
            assertThatThrownBy(() -> NpyHeader.read(new Trickle(real, 8192), file)).isInstanceOf(EOFException.class)
                    .hasMessage("the file ended while reading its header");
        }
    }

    /**
     * A channel that claims {@code size} bytes and reads at most 7 bytes at a time, every other read none at all,
     * as a positional read may.
     */
    private static final class Trickle extends FileChannel {
        private final FileChannel real;
        private final long size;
        private boolean empty;

        Trickle(FileChannel real, long size) {
            this.real = real;
            this.size = size;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            empty = !empty;
            if (empty) {
                return 0;
            }
            ByteBuffer piece = dst.slice().limit(Math.min(7, dst.remaining()));
            int n = real.read(piece, position);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
            return n;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public int read(ByteBuffer dst) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long position() {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel position(long newPosition) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileChannel truncate(long newSize) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void force(boolean metaData) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int write(ByteBuffer src, long position) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) {
            throw new UnsupportedOperationException();
        }

        @Override
        protected void implCloseChannel() {
            // the real channel is the caller's
        }
    }
}
