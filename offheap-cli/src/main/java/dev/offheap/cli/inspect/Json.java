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

package dev.offheap.cli.inspect;

import java.util.Locale;

/** Writes one JSON value on one line, without a library: objects, arrays, strings, numbers, null. */
final class Json {
    private final StringBuilder out = new StringBuilder();
    private boolean needsComma;

    Json beginObject() {
        comma();
        out.append('{');
        needsComma = false;
        return this;
    }

    Json endObject() {
        out.append('}');
        needsComma = true;
        return this;
    }

    Json beginArray() {
        comma();
        out.append('[');
        needsComma = false;
        return this;
    }

    Json endArray() {
        out.append(']');
        needsComma = true;
        return this;
    }

    /** A key inside an object; the next call writes its value. */
    Json key(String key) {
        comma();
        string(key);
        out.append(':');
        needsComma = false;
        return this;
    }

    Json value(long number) {
        comma();
        out.append(number);
        needsComma = true;
        return this;
    }

    /** The shortest decimal that reads back as the same double (a JSON number), null for NaN and infinities. */
    Json value(double number) {
        comma();
        out.append(Double.isFinite(number) ? Double.toString(number) : "null");
        needsComma = true;
        return this;
    }

    /** A number as exactly as its type holds it: integers as integers, floating point by {@link #value(double)}. */
    Json value(Number number) {
        if (number == null) {
            return value((String) null);
        }
        if (number instanceof Double || number instanceof Float) {
            return value(number.doubleValue());
        }
        return value(number.longValue());
    }

    Json value(boolean flag) {
        comma();
        out.append(flag);
        needsComma = true;
        return this;
    }

    Json value(String text) {
        comma();
        if (text == null) {
            out.append("null");
        } else {
            string(text);
        }
        needsComma = true;
        return this;
    }

    Json field(String key, long number) {
        return key(key).value(number);
    }

    Json field(String key, double number) {
        return key(key).value(number);
    }

    Json field(String key, String text) {
        return key(key).value(text);
    }

    private void comma() {
        if (needsComma) {
            out.append(',');
        }
    }

    private void string(String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
