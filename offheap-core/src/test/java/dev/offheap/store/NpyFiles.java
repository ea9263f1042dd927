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

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Hand-made {@code .npy} files, as NumPy or a foreign or broken writer would make them. */
final class NpyFiles {
    private NpyFiles() {}

    /** A header as NumPy writes it: {@code dict}, spaces, and a newline, padded to a multiple of 64 bytes. */
    static byte[] header(int major, String dict) {
        int prefix = major == 1 ? 10 : 12;
        int total = (prefix + dict.length() + 1 + 63) / 64 * 64;
        return header(major, dict, total - prefix);
    }

    /** A header of exactly {@code headerLength} bytes after the preamble. */
    static byte[] header(int major, String dict, int headerLength) {
        int prefix = major == 1 ? 10 : 12;
        ByteBuffer out = ByteBuffer.allocate(prefix + headerLength).order(ByteOrder.LITTLE_ENDIAN);
        out.put(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        if (major == 1) {
            out.putShort((short) headerLength);
        } else {
            out.putInt(headerLength);
        }
        out.put(dict.getBytes(StandardCharsets.ISO_8859_1));
        while (out.remaining() > 1) {
            out.put((byte) ' ');
        }
        out.put((byte) '\n');
        return out.array();
    }

    static Path write(Path file, byte[] header, byte[] data) throws IOException {
        byte[] all = new byte[header.length + data.length];
        System.arraycopy(header, 0, all, 0, header.length);
        System.arraycopy(data, 0, all, header.length, data.length);
        return Files.write(file, all);
    }

    /** {@code n} little-endian doubles {@code 0.5 * i}. */
    static byte[] doubles(int n) {
        ByteBuffer data = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            data.putDouble(0.5 * i);
        }
        return data.array();
    }

    static String dict(String descr, boolean fortranOrder, String shape) {
        return "{'descr': '" + descr + "', 'fortran_order': " + (fortranOrder ? "True" : "False") + ", 'shape': "
                + shape + ", }";
    }
}
