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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON that {@code inspect --json} writes: objects, arrays, strings, numbers, null. For tests; strict
 * about commas and about text after the value, so that a test sees a malformed document.
 */
final class MiniJson {
    private final String text;
    private int at;

    private MiniJson(String text) {
        this.text = text;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    /** One JSON value, the whole text: a missing comma or anything after the value is an error. */
    static Object parse(String text) {
        MiniJson json = new MiniJson(text.strip());
        Object value = json.value();
        if (json.at != json.text.length()) {
            throw new IllegalArgumentException("text after the value at " + json.at + " in " + json.text);
        }
        return value;
    }

    /** The bytes of the attribution's part {@code key}, 0 when the document has no such part. */
    static double part(Map<String, Object> root, String key) {
        for (Object p : (List<?>) root.get("attribution")) {
            Map<?, ?> part = (Map<?, ?>) p;
            if (part.get("part").equals(key)) {
                return ((Number) part.get("bytes")).doubleValue();
            }
        }
        return 0;
    }

    /** The number at a dotted path such as {@code details.malloc.free}. */
    @SuppressWarnings("unchecked")
    static double number(Map<String, Object> root, String path) {
        Object node = root;
        for (String key : path.split("\\.")) {
            node = ((Map<String, Object>) node).get(key);
            if (node == null) {
                throw new AssertionError("no " + path + " in " + root);
            }
        }
        return ((Number) node).doubleValue();
    }

    /** The value at a dotted path such as {@code details.malloc.free} or {@code attribution.0.part}. */
    static Object get(Object root, String path) {
        Object node = root;
        for (String key : path.split("\\.")) {
            if (node instanceof Map<?, ?> map && map.containsKey(key)) {
                node = map.get(key);
            } else if (node instanceof List<?> list && key.matches("\\d+") && Integer.parseInt(key) < list.size()) {
                node = list.get(Integer.parseInt(key));
            } else {
                throw new AssertionError("no " + path + " in " + root);
            }
        }
        return node;
    }

    private Object value() {
        skipSpace();
        char c = text.charAt(at);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            skipSpace();
            if (text.charAt(at) == '}') {
                at++;
                return map;
            }
            while (true) {
                skipSpace();
                String key = string();
                skipSpace();
                expect(':');
                map.put(key, value());
                skipSpace();
                if (text.charAt(at) == '}') {
                    at++;
                    return map;
                }
                expect(',');
            }
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            at++;
            skipSpace();
            if (text.charAt(at) == ']') {
                at++;
                return list;
            }
            while (true) {
                list.add(value());
                skipSpace();
                if (text.charAt(at) == ']') {
                    at++;
                    return list;
                }
                expect(',');
            }
        }
        if (c == '"') {
            return string();
        }
        if (text.startsWith("null", at)) {
            at += 4;
            return null;
        }
        if (text.startsWith("true", at) || text.startsWith("false", at)) {
            boolean flag = text.charAt(at) == 't';
            at += flag ? 4 : 5;
            return flag;
        }
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String number = text.substring(start, at);
        // Integers stay exact (a long); the rest is the double its shortest decimal reads back as.
        return number.matches("-?[0-9]+") ? (Object) Long.parseLong(number) : (Object) Double.parseDouble(number);
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\') {
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        at++;
        return out.toString();
    }

    private void expect(char c) {
        if (text.charAt(at) != c) {
            throw new IllegalArgumentException("expected " + c + " at " + at + " in " + text);
        }
        at++;
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }
}
