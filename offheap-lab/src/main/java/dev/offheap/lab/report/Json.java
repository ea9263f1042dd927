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

package dev.offheap.lab.report;

import java.util.Collection;
import java.util.Map;

/**
 * A small JSON writer: maps, collections, records (as objects of their components, in declaration order),
 * strings, numbers (NaN and infinities as null), booleans, null.
 */
public final class Json {
    private Json() {}

    /** {@code value} as indented JSON text, ending with a line break. */
    public static String write(Object value) {
        StringBuilder s = new StringBuilder();
        write(value, s, "");
        return s.append('\n').toString();
    }

    private static void write(Object value, StringBuilder s, String indent) {
        switch (value) {
            case null -> s.append("null");
            case Double d when d.isNaN() || d.isInfinite() -> s.append("null");
            case Float f when f.isNaN() || f.isInfinite() -> s.append("null");
            case Number n -> s.append(n);
            case Boolean b -> s.append(b);
            case Map<?, ?> map -> {
                if (map.isEmpty()) {
                    s.append("{}");
                    return;
                }
                s.append("{\n");
                String inner = indent + "  ";
                int i = 0;
                for (var e : map.entrySet()) {
                    s.append(inner);
                    string(String.valueOf(e.getKey()), s);
                    s.append(": ");
                    write(e.getValue(), s, inner);
                    s.append(++i < map.size() ? ",\n" : "\n");
                }
                s.append(indent).append('}');
            }
            case Collection<?> list -> {
                s.append('[');
                int i = 0;
                for (Object o : list) {
                    write(o, s, indent);
                    if (++i < list.size()) {
                        s.append(", ");
                    }
                }
                s.append(']');
            }
            case Record record -> write(components(record), s, indent);
            default -> string(value.toString(), s);
        }
    }

    private static Map<String, Object> components(Record record) {
        Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (var component : record.getClass().getRecordComponents()) {
            try {
                component.getAccessor().setAccessible(true);
                map.put(component.getName(), component.getAccessor().invoke(record));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + component + " of " + record, e);
            }
        }
        return map;
    }

    private static void string(String text, StringBuilder s) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        s.append('"');
    }
}
