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

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;

/**
 * The header of an {@code .npy} file that holds a 1-D array: NumPy's format, which offheap writes and reads.
 *
 * <p>Files that offheap creates use format 1.0 with a header of exactly {@value #BLOCK} bytes, so the data
 * starts page aligned, and carry offheap's own fields in a Python comment that NumPy skips:
 * <pre>
 *    0  \x93NUMPY 01 00 F6 0F          magic, format 1.0, header length 4086 (uint16 little endian)
 *   10  {'descr': '&lt;f8', 'fortran_order': False, 'shape': (1000,), } # offheap-array 1 crc32c=6cd09576
 *       spaces up to byte 4094, '\n' at byte 4095
 * 4096  the elements
 * </pre>
 * The checksum (CRC32C) covers every byte before its digits; only spaces and the final newline may follow
 * them. Plain {@code .npy} files written by NumPy or other tools (formats 1.0, 2.0 and 3.0, no comment, any
 * header length) are read too.
 *
 * @param dataOffset where the elements start: the header's size in bytes
 * @param dtype      the dtype of the elements
 * @param descr      the dtype string exactly as the header has it (e.g. {@code '|u1'}, {@code '=u2'}): every
 *                   header written for the file keeps it, so a uint8 file never becomes int8
 * @param offheap    whether the header carries offheap's comment (and so its fixed layout)
 */
record NpyHeader(int major, int minor, int dataOffset, NpyDtype dtype, String descr, long length,
        boolean fortranOrder, boolean offheap) {

    /** The header size of files offheap creates: one page. */
    static final int BLOCK = 4096;
    /** The version of offheap's fields in the comment. */
    static final int FORMAT = 1;
    /** The largest header read: NumPy itself refuses more than 10,000 bytes unless told to trust the file. */
    static final int MAX_HEADER = 1 << 20;

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final String MARK = "# offheap-array ";
    private static final Pattern FORMAT_FIELD = Pattern.compile(" offheap-array (\\d+) ");
    private static final Pattern COMMENT = Pattern.compile(" offheap-array \\d+ crc32c=([0-9a-f]{8}) *");
    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");
    private static final char NATIVE_ORDER = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? '<' : '>';

    /** The header of a new file that offheap creates, of the dtype named like {@code type}. */
    static NpyHeader create(ElementType type, long length) {
        return create(NpyDtype.of(type), length);
    }

    /** The header of a new file that offheap creates. */
    static NpyHeader create(NpyDtype dtype, long length) {
        return new NpyHeader(1, 0, BLOCK, dtype, dtype.descr(), length, false, true);
    }

    /** The same header with another length; the dtype string stays as it is. */
    NpyHeader withLength(long newLength) {
        return new NpyHeader(major, minor, dataOffset, dtype, descr, newLength, fortranOrder, offheap);
    }

    /** The element type of the file's views. */
    ElementType type() {
        return dtype.elementType();
    }

    /** Bytes of element data. */
    long dataBytes() {
        return length << type().shift();
    }

    /** The largest length a file with this header can have: its data must end within {@code Long.MAX_VALUE}. */
    long maxLength() {
        return (Long.MAX_VALUE - BLOCK - dataOffset) >> type().shift();
    }

    /**
     * Reads and checks the header of {@code file}, and that the file holds all the data it announces.
     *
     * @throws ArrayFileException if the file is not a 1-D {@code .npy} array that offheap maps, is truncated or
     *                            corrupt
     */
    static NpyHeader read(FileChannel channel, Path file) throws IOException {
        long size = channel.size();
        byte[] preamble = readAt(channel, 0, (int) Math.min(size, 12));
        int end = headerEnd(preamble, size, file);
        return parse(readAt(channel, 0, (int) Math.min(size, end)), size, file);
    }

    /**
     * Checks a header given the file's first bytes ({@code head}: the whole header, or the whole file if it is
     * shorter) and its size.
     */
    static NpyHeader parse(byte[] head, long fileSize, Path file) throws ArrayFileException {
        int dataOffset = headerEnd(head, fileSize, file);
        if (fileSize < dataOffset || head.length < dataOffset) {
            throw refuse(file, "truncated: the header ends at byte " + dataOffset + " but the file has only "
                    + fileSize + " bytes");
        }
        int major = head[6] & 0xFF;
        int minor = head[7] & 0xFF;
        int prefix = prefixLength(major);
        String text = new String(head, prefix, dataOffset - prefix,
                major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int mark = text.indexOf(MARK);
        if (mark >= 0) {
            checkOffheapLayout(head, major, minor, dataOffset, prefix + mark + 1, file);
        }
        PyLiteral.Parsed parsed;
        try {
            parsed = PyLiteral.parse(text);
        } catch (IllegalArgumentException e) {
            throw refuse(file, "cannot read the header, which is not the Python dict NumPy writes: "
                    + e.getMessage());
        }
        List<PyLiteral.Comment> comments = parsed.comments();
        boolean offheap = mark >= 0 && comments.size() == 1 && comments.getFirst().start() == mark + 1;
        if (!comments.isEmpty() && !offheap) {
            throw refuse(file, "the header has a comment that offheap did not write ('#"
                    + shorten(comments.getFirst().text()) + "'): corrupt, or written by another tool");
        }
        if (!(parsed.value() instanceof Map<?, ?> dict)) {
            throw refuse(file, "the header is not a dict but " + repr(parsed.value()));
        }
        if (!dict.keySet().equals(KEYS)) {
            throw refuse(file, "the header must have exactly the keys 'descr', 'fortran_order' and 'shape', not "
                    + dict.keySet().stream().map(NpyHeader::repr).collect(Collectors.joining(", ", "[", "]")));
        }
        if (!(dict.get("fortran_order") instanceof Boolean fortranOrder)) {
            throw refuse(file, "fortran_order is " + repr(dict.get("fortran_order")) + ", not True or False");
        }
        NpyDtype dtype = dtype(dict.get("descr"), file);
        String descr = (String) dict.get("descr");
        long length = length(dict.get("shape"), fortranOrder, dtype, file);
        int size = dtype.elementType().byteSize();
        if (dataOffset % size != 0) {
            throw refuse(file, "the data starts at byte " + dataOffset + ", which is not a multiple of "
                    + size + ", the size of " + dtype + ": offheap maps aligned data only");
        }
        NpyHeader header = new NpyHeader(major, minor, dataOffset, dtype, descr, length, fortranOrder, offheap);
        if (length > header.maxLength()) {
            throw refuse(file, "a length of " + length + " " + dtype + " elements is too large");
        }
        if (fileSize - dataOffset < header.dataBytes()) {
            throw refuse(file, "truncated: " + length + " " + dtype + " elements need " + header.dataBytes()
                    + " bytes from byte " + dataOffset + " on, but the file has only " + (fileSize - dataOffset));
        }
        return header;
    }

    /**
     * The header's bytes, {@link #dataOffset} of them, ready to be written at the start of the file.
     *
     * @throws ArrayFileException if the header (of a file another tool wrote) has no room for the new length
     */
    byte[] encode(Path file) throws ArrayFileException {
        byte[] block = new byte[dataOffset];
        ByteBuffer out = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
        out.put(MAGIC).put((byte) major).put((byte) minor);
        int headerLength = dataOffset - prefixLength(major);
        if (major == 1) {
            out.putShort((short) headerLength);
        } else {
            out.putInt(headerLength);
        }
        String dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortranOrder ? "True" : "False")
                + ", 'shape': (" + length + ",), }";
        String text = offheap ? dict + " " + MARK + FORMAT + " crc32c=" : dict;
        int checksumAt = out.position() + text.length();
        if (checksumAt + (offheap ? 8 : 0) + 1 > dataOffset) {
            throw refuse(file, "the .npy header has no room for the length " + length + " (it was written by"
                    + " another tool with " + headerLength + " bytes of header): copy the data into a file"
                    + " made by MappedArray.create to grow it");
        }
        out.put(text.getBytes(StandardCharsets.US_ASCII));
        if (offheap) {
            out.put(HexFormat.of().formatHex(checksum(block, checksumAt)).getBytes(StandardCharsets.US_ASCII));
        }
        while (out.position() < dataOffset - 1) {
            out.put((byte) ' ');
        }
        out.put((byte) '\n');
        return block;
    }

    /** Checks the preamble (magic, version, header length) and returns where the header ends. */
    private static int headerEnd(byte[] head, long fileSize, Path file) throws ArrayFileException {
        if (fileSize == 0) {
            throw refuse(file, "the file is empty, not an .npy file");
        }
        for (int i = 0; i < Math.min(head.length, MAGIC.length); i++) {
            if (head[i] != MAGIC[i]) {
                throw refuse(file, "not an .npy file: it starts with "
                        + HexFormat.ofDelimiter(" ").formatHex(head, 0, Math.min(head.length, 8))
                        + " instead of 93 4e 55 4d 50 59 (\\x93NUMPY)");
            }
        }
        if (head.length < 8) {
            throw refuse(file, "truncated: " + fileSize + " bytes, less than an .npy preamble");
        }
        int major = head[6] & 0xFF;
        int minor = head[7] & 0xFF;
        if (major < 1 || major > 3 || minor != 0) {
            throw refuse(file, "unsupported .npy format version " + major + "." + minor
                    + " (offheap reads 1.0, 2.0 and 3.0)");
        }
        int prefix = prefixLength(major);
        if (head.length < prefix) {
            throw refuse(file, "truncated: " + fileSize + " bytes, less than an .npy preamble");
        }
        ByteBuffer in = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        long headerLength = major == 1 ? in.getShort(8) & 0xFFFF : in.getInt(8) & 0xFFFF_FFFFL;
        if (headerLength > MAX_HEADER) {
            throw refuse(file, "the header claims " + headerLength + " bytes, more than the " + MAX_HEADER
                    + " offheap reads: corrupt, or not an array file");
        }
        return (int) (prefix + headerLength);
    }

    private static int prefixLength(int major) {
        return major == 1 ? 10 : 12;
    }

    /**
     * A header with offheap's mark must be exactly what offheap writes: format 1.0, {@value #BLOCK} bytes,
     * the right checksum, then only spaces and the newline. A flipped byte anywhere fails one of these.
     */
    private static void checkOffheapLayout(byte[] head, int major, int minor, int dataOffset, int commentAt,
            Path file) throws ArrayFileException {
        if (major != 1 || minor != 0 || dataOffset != BLOCK) {
            throw refuse(file, "header checksum mismatch: corrupt (an offheap header must be format 1.0 with "
                    + BLOCK + " bytes, this one is " + major + "." + minor + " with " + dataOffset + ")");
        }
        String rest = new String(head, commentAt, BLOCK - commentAt - 1, StandardCharsets.ISO_8859_1);
        Matcher format = FORMAT_FIELD.matcher(rest);
        if (format.lookingAt() && !format.group(1).equals(Integer.toString(FORMAT))) {
            throw refuse(file, "written by a newer offheap (array file format " + format.group(1)
                    + "; this version reads format " + FORMAT + "), or corrupt");
        }
        Matcher matcher = COMMENT.matcher(rest);
        if (!matcher.matches() || head[BLOCK - 1] != '\n') {
            throw refuse(file, "header checksum mismatch: corrupt (offheap's comment is damaged: '#"
                    + shorten(rest) + "')");
        }
        int checksumAt = commentAt + matcher.start(1);
        String expected = HexFormat.of().formatHex(checksum(head, checksumAt));
        if (!expected.equals(matcher.group(1))) {
            throw refuse(file, "header checksum mismatch: corrupt (crc32c of the header is " + expected
                    + ", the header says " + matcher.group(1) + ")");
        }
    }

    private static byte[] checksum(byte[] block, int length) {
        CRC32C crc = new CRC32C();
        crc.update(block, 0, length);
        return ByteBuffer.allocate(4).putInt((int) crc.getValue()).array();
    }

    private static NpyDtype dtype(Object descr, Path file) throws ArrayFileException {
        if (descr instanceof List<?> || descr instanceof PyLiteral.Tuple) {
            throw refuse(file, "holds a structured dtype " + repr(descr) + ": offheap maps plain arrays of "
                    + supported() + " only");
        }
        if (!(descr instanceof String dtype) || dtype.isEmpty()) {
            throw refuse(file, "descr is " + repr(descr) + ", not a dtype string such as '<f8'");
        }
        char order = dtype.charAt(0);
        boolean hasOrder = order == '<' || order == '>' || order == '|' || order == '=';
        String kind = hasOrder ? dtype.substring(1) : dtype;
        NpyDtype type = null;
        for (NpyDtype candidate : NpyDtype.values()) {
            if (candidate.kind().equals(kind)) {
                type = candidate;
            }
        }
        if (type == null) {
            throw refuse(file, "holds dtype " + repr(dtype) + ", which offheap does not map: it maps "
                    + supported());
        }
        int size = type.elementType().byteSize();
        if (size > 1 && order == '|') {
            throw refuse(file, "dtype " + repr(dtype) + " has no byte order");
        }
        if (size > 1 && (order == '<' || order == '>') && order != NATIVE_ORDER) {
            throw refuse(file, "holds " + (order == '>' ? "big" : "little") + "-endian " + type + " ("
                    + repr(dtype) + "), but this machine is " + (order == '>' ? "little" : "big") + "-endian;"
                    + " offheap maps native byte order only: convert it in NumPy with a.astype('"
                    + NATIVE_ORDER + kind + "')");
        }
        return type;
    }

    private static long length(Object shape, boolean fortranOrder, NpyDtype type, Path file)
            throws ArrayFileException {
        if (!(shape instanceof PyLiteral.Tuple(List<Object> dims)) || !dims.stream().allMatch(Long.class::isInstance)) {
            throw refuse(file, "shape is " + repr(shape) + ", not a tuple of integers");
        }
        if (dims.size() != 1) {
            throw refuse(file, "holds a " + dims.size() + "-dimensional " + (fortranOrder ? "Fortran-order " : "")
                    + "array of " + type + ", shape " + repr(shape) + ": offheap maps 1-D arrays only");
        }
        long length = (Long) dims.getFirst();
        if (length < 0) {
            throw refuse(file, "shape " + repr(shape) + " has a negative length");
        }
        return length;
    }

    /** Text from the file for a message: at most 80 characters. */
    private static String shorten(String text) {
        String trimmed = text.stripTrailing();
        return trimmed.length() <= 80 ? trimmed : trimmed.substring(0, 77) + "...";
    }

    private static String supported() {
        StringBuilder list = new StringBuilder();
        NpyDtype[] all = NpyDtype.values();
        for (int i = 0; i < all.length; i++) {
            list.append(i == 0 ? "" : i == all.length - 1 ? " and " : ", ")
                    .append(all[i]).append(" ('").append(all[i].descr()).append("')");
        }
        return list.toString();
    }

    /** A value as Python would print it, for messages. */
    private static String repr(Object value) {
        return switch (value) {
            case String s -> "'" + s + "'";
            case Boolean b -> b ? "True" : "False";
            case PyLiteral.Tuple(List<Object> items) -> items.size() == 1 ? "(" + repr(items.getFirst()) + ",)"
                    : items.stream().map(NpyHeader::repr).collect(Collectors.joining(", ", "(", ")"));
            case List<?> list -> list.stream().map(NpyHeader::repr).collect(Collectors.joining(", ", "[", "]"));
            case Map<?, ?> map -> map.entrySet().stream().map(e -> repr(e.getKey()) + ": " + repr(e.getValue()))
                    .collect(Collectors.joining(", ", "{", "}"));
            case null -> "None";
            default -> String.valueOf(value);
        };
    }

    private static ArrayFileException refuse(Path file, String problem) {
        return new ArrayFileException(file, problem);
    }

    private static byte[] readAt(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException("the file ended while reading its header");
            }
        }
        return buffer.array();
    }
}
