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

package dev.offheap.account;

import java.util.Locale;

/** Byte counts for people: {@code 4194304} reads {@code "4.0 MiB (4194304 bytes)"}. */
public final class Bytes {
    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private Bytes() {}

    /**
     * The count in binary units with the exact figure beside it; below 1 KiB just {@code "N bytes"}.
     *
     * @param bytes a byte count, negative allowed (a difference)
     * @return the text, e.g. {@code "4.0 MiB (4194304 bytes)"}
     */
    public static String format(long bytes) {
        return bytes < 1024 && bytes > -1024 ? bytes + " bytes" : human(bytes) + " (" + bytes + " bytes)";
    }

    /**
     * The count in binary units only, one decimal: {@code "4.0 MiB"}.
     *
     * @param bytes a byte count, negative allowed (a difference)
     * @return the text, e.g. {@code "4.0 MiB"}; below 1 KiB {@code "N B"}
     */
    public static String human(long bytes) {
        if (bytes < 1024 && bytes > -1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = -1;
        // 1023.95 and above would print as "1024.0" of this unit: that is 1.0 of the next one
        while (Math.abs(value) >= 1023.95 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }
}
