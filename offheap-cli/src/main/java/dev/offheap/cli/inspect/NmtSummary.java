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

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The output of {@code VM.native_memory summary}: per category, the memory the JVM maps itself
 * ({@code mmap: committed}), its thread stacks ({@code stack: committed}, which NMT measures as resident
 * pages) and what it malloc'd ({@code malloc=}, {@code arena=}: inside glibc malloc).
 *
 * @param categories each category by name, in NMT's order
 */
record NmtSummary(Map<String, Category> categories) {
    private static final Pattern CATEGORY = Pattern.compile("^-\\s+(.+?)\\s+\\(reserved=(\\d+)(\\w*), committed=(\\d+)(\\w*)[,)]");
    private static final Pattern MMAP = Pattern.compile("\\(mmap: reserved=(\\d+)(\\w*), committed=(\\d+)(\\w*)");
    private static final Pattern STACK = Pattern.compile("\\(stack: reserved=(\\d+)(\\w*), committed=(\\d+)(\\w*)");
    private static final Pattern MALLOC = Pattern.compile("\\((?:malloc|arena)=(\\d+)(\\w*)");

    /**
     * One NMT category, bytes.
     *
     * @param committed what NMT calls committed for the whole category
     * @param mmapCommitted committed memory the JVM mapped itself
     * @param stackCommitted resident thread stacks (the Thread category only)
     * @param mallocBytes malloc'd and arena bytes (inside glibc's malloc)
     */
    record Category(long committed, long mmapCommitted, long stackCommitted, long mallocBytes) {}

    /** Null when the target does not run with NMT (the command then says so instead). */
    static NmtSummary parse(String text) {
        if (text == null || !text.contains("Native Memory Tracking")) {
            return null;
        }
        Map<String, Category> categories = new LinkedHashMap<>();
        String name = null;
        long committed = 0;
        long mmap = 0;
        long stack = 0;
        long malloc = 0;
        for (String line : text.split("\n")) {
            Matcher c = CATEGORY.matcher(line.trim());
            if (c.find()) {
                if (name != null) {
                    categories.put(name, new Category(committed, mmap, stack, malloc));
                }
                name = c.group(1);
                committed = bytes(c.group(4), c.group(5));
                mmap = 0;
                stack = 0;
                malloc = 0;
                continue;
            }
            if (name == null) {
                continue;
            }
            Matcher m = MMAP.matcher(line);
            if (m.find()) {
                mmap += bytes(m.group(3), m.group(4));
            }
            Matcher s = STACK.matcher(line);
            if (s.find()) {
                stack += bytes(s.group(3), s.group(4));
            }
            Matcher a = MALLOC.matcher(line);
            while (a.find()) {
                malloc += bytes(a.group(1), a.group(2));
            }
        }
        if (name != null) {
            categories.put(name, new Category(committed, mmap, stack, malloc));
        }
        return new NmtSummary(Collections.unmodifiableMap(categories));
    }

    private static long bytes(String number, String unit) {
        long n = Long.parseLong(number);
        return switch (unit.toUpperCase(Locale.ROOT)) {
            case "", "B" -> n;
            case "KB" -> n << 10;
            case "MB" -> n << 20;
            case "GB" -> n << 30;
            default -> throw new IllegalArgumentException("unknown NMT unit " + unit);
        };
    }

    private long sum(ToLongFunction<Category> field, String... names) {
        long total = 0;
        for (String n : names) {
            Category c = categories.get(n);
            if (c != null) {
                total += field.applyAsLong(c);
            }
        }
        return total;
    }

    long threadStacks() {
        return sum(Category::stackCommitted, "Thread");
    }

    long metaspace() {
        return sum(Category::mmapCommitted, "Class", "Metaspace");
    }

    long gc() {
        return sum(Category::mmapCommitted, "GC");
    }

    long mallocTotal() {
        return categories.values().stream().mapToLong(Category::mallocBytes).sum();
    }

    /**
     * Memory the JVM mapped anonymously for every other category. Excluded: the heap and the code cache
     * (measured from their address ranges), the shared class space (a mapped file), the thread stacks,
     * metaspace and GC (reported on their own).
     */
    long otherMapped() {
        long total = 0;
        for (var e : categories.entrySet()) {
            switch (e.getKey()) {
                case "Java Heap", "Code", "Shared class space", "Thread", "Class", "Metaspace", "GC" -> { }
                default -> total += e.getValue().mmapCommitted();
            }
        }
        return total;
    }
}
