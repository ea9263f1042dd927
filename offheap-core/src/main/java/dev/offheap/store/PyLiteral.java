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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of the Python literals in a {@code .npy} header, which NumPy reads with
 * {@code ast.literal_eval}: dicts, tuples, lists, strings, integers, {@code True}, {@code False},
 * {@code None}, and {@code #} comments, which are kept. It reads what NumPy reads the same way (a later
 * duplicate key wins; {@code (3)} is an int, {@code (3,)} a tuple) and refuses everything else.
 *
 * <p>Values become {@link Map} (dict), {@link Tuple}, {@link List} (list), {@link String}, {@link Long}
 * ({@link IllegalArgumentException} beyond its range), {@link Boolean} and {@link #NONE}.
 */
final class PyLiteral {
    /** Python's {@code None}. */
    static final Object NONE = new Object() {
        @Override
        public String toString() {
            return "None";
        }
    };

    /** A Python tuple. */
    record Tuple(List<Object> items) {}

    /** A {@code #} comment: where its text starts (after the {@code #}) and the text up to the line's end. */
    record Comment(int start, String text) {}

    /** A literal and the comments around it. */
    record Parsed(Object value, List<Comment> comments) {}

    /** Deeper nesting is refused: a header is never nested more than a few levels, and recursion is finite. */
    static final int MAX_DEPTH = 64;

    private final String text;
    private final List<Comment> comments = new ArrayList<>();
    private int at;
    private int depth;

    private PyLiteral(String text) {
        this.text = text;
    }

    /**
     * Reads one literal that fills {@code text}, give or take white space and comments.
     *
     * @throws IllegalArgumentException naming the position of the first thing that is not a literal
     */
    static Parsed parse(String text) {
        PyLiteral reader = new PyLiteral(text);
        Object value = reader.value();
        reader.skipBlanks();
        if (reader.at < text.length()) {
            throw reader.error("unexpected text after the literal");
        }
        return new Parsed(value, List.copyOf(reader.comments));
    }

    private Object value() {
        skipBlanks();
        if (at >= text.length()) {
            throw error("a value is missing");
        }
        char c = text.charAt(at);
        if (c == '{' || c == '(' || c == '[') {
            if (++depth > MAX_DEPTH) {
                throw error("values nested more than " + MAX_DEPTH + " deep");
            }
            Object value = c == '{' ? dict() : c == '(' ? parenthesized() : list();
            depth--;
            return value;
        }
        return switch (c) {
            case '\'', '"' -> string();
            case '-', '+', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> integer();
            default -> name();
        };
    }

    private Map<Object, Object> dict() {
        at++;
        Map<Object, Object> map = new LinkedHashMap<>();
        while (!closing('}')) {
            Object key = value();
            expect(':');
            Object item = value();
            if (key instanceof Map || key instanceof List) {
                throw error("a dict key cannot be a " + (key instanceof Map ? "dict" : "list"));
            }
            map.put(key, item);
            if (!separator('}')) {
                break;
            }
        }
        expect('}');
        return map;
    }

    /** {@code (x)} is x; {@code ()}, {@code (x,)} and {@code (x, y)} are tuples. */
    private Object parenthesized() {
        at++;
        List<Object> items = new ArrayList<>();
        boolean comma = false;
        while (!closing(')')) {
            items.add(value());
            comma = separator(')');
            if (!comma) {
                break;
            }
        }
        expect(')');
        return items.size() == 1 && !comma ? items.getFirst() : new Tuple(List.copyOf(items));
    }

    private List<Object> list() {
        at++;
        List<Object> items = new ArrayList<>();
        while (!closing(']')) {
            items.add(value());
            if (!separator(']')) {
                break;
            }
        }
        expect(']');
        return items;
    }

    private String string() {
        char quote = text.charAt(at++);
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length() || text.charAt(at) == '\n') {
                throw error("a string is not closed");
            }
            char c = text.charAt(at++);
            if (c == quote) {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                throw error("a string is not closed");
            }
            char escaped = text.charAt(at++);
            switch (escaped) {
                case '\\', '\'', '"' -> out.append(escaped);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'x' -> {
                    if (at + 2 > text.length()) {
                        throw error("a \\x escape needs two hex digits");
                    }
                    try {
                        out.append((char) Integer.parseInt(text, at, at + 2, 16));
                    } catch (NumberFormatException e) {
                        throw error("a \\x escape needs two hex digits");
                    }
                    at += 2;
                }
                default -> throw error("unsupported escape \\" + escaped + " in a string");
            }
        }
    }

    private Long integer() {
        int start = at;
        if (text.charAt(at) == '-' || text.charAt(at) == '+') {
            at++;
        }
        int digits = at;
        while (at < text.length() && Character.isDigit(text.charAt(at)) && text.charAt(at) < 128) {
            at++;
        }
        if (at == digits) {
            throw error("a sign without a number");
        }
        if (text.charAt(digits) == '0' && !text.substring(digits, at).chars().allMatch(d -> d == '0')) {
            throw error("an integer with a leading zero");
        }
        String number = text.substring(start, at);
        // Python 2 wrote long integers as 3L; NumPy still reads those headers.
        if (at < text.length() && (text.charAt(at) == 'L' || text.charAt(at) == 'l')) {
            at++;
        }
        if (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.'
                || text.charAt(at) == '_')) {
            throw error("only decimal integers are supported");
        }
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the integer " + number + " at position " + start
                    + " is out of range");
        }
    }

    private Object name() {
        int start = at;
        while (at < text.length() && Character.isLetterOrDigit(text.charAt(at))) {
            at++;
        }
        return switch (text.substring(start, at)) {
            case "True" -> Boolean.TRUE;
            case "False" -> Boolean.FALSE;
            case "None" -> NONE;
            default -> {
                at = start;
                throw error("not a literal");
            }
        };
    }

    /** After an item: true if a comma follows (more may come), false if {@code close} does. */
    private boolean separator(char close) {
        skipBlanks();
        if (at < text.length() && text.charAt(at) == ',') {
            at++;
            return true;
        }
        if (at < text.length() && text.charAt(at) == close) {
            return false;
        }
        throw error("expected ',' or '" + close + "'");
    }

    private boolean closing(char close) {
        skipBlanks();
        return at < text.length() && text.charAt(at) == close;
    }

    private void expect(char c) {
        skipBlanks();
        if (at >= text.length() || text.charAt(at) != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private void skipBlanks() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
                at++;
            } else if (c == '#') {
                int end = text.indexOf('\n', at);
                end = end < 0 ? text.length() : end;
                comments.add(new Comment(at + 1, text.substring(at + 1, end)));
                at = end;
            } else {
                return;
            }
        }
    }

    private IllegalArgumentException error(String problem) {
        String near = at >= text.length() ? "the end"
                : "position " + at + " ('" + text.substring(at, Math.min(text.length(), at + 12))
                        .replace("\n", "\\n") + "')";
        return new IllegalArgumentException(problem + " at " + near);
    }
}
