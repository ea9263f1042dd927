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

import java.util.List;

/**
 * The legend under a chart's plot: a key and the whole name of each series, in rows of equal columns as wide as
 * the longest name: as few rows as the width allows, the entries spread evenly over them.
 */
record Legend(List<String> names, int columnWidth, int columns) {
    static final int KEY = 12;
    static final int ROW_HEIGHT = 22;
    /** From a key to its name. */
    static final int KEY_GAP = 6;
    /** From the end of the longest name to the next column. */
    private static final int COLUMN_GAP = 28;
    /**
     * SVG text does not wrap, and its width is only known once a browser draws it: names are measured at this
     * width per character, more than a sans-serif font's average at the charts' font size, so that a name never
     * runs into the next column.
     */
    private static final double CHARACTER_WIDTH = 0.62 * SvgChart.FONT_SIZE;

    static Legend of(List<String> names, int width) {
        int longest = names.stream().mapToInt(n -> n.codePointCount(0, n.length())).max().orElse(0);
        int columnWidth = KEY + KEY_GAP + (int) Math.ceil(longest * CHARACTER_WIDTH) + COLUMN_GAP;
        int rows = Math.ceilDiv(names.size(), Math.max(1, width / columnWidth));
        // The fewest columns that fill those rows: three and three rather than five and one.
        return new Legend(names, columnWidth, rows == 0 ? 1 : Math.ceilDiv(names.size(), rows));
    }

    int rows() {
        return Math.ceilDiv(names.size(), columns);
    }

    /** As wide as its columns, without the gap after the last one: wider than asked only for a name that long. */
    int width() {
        return columns * columnWidth - COLUMN_GAP;
    }

    /** Where an entry's key starts, from the legend's left. */
    int x(int entry) {
        return entry % columns * columnWidth;
    }

    /** Where an entry's row starts, from the legend's top. */
    int y(int entry) {
        return entry / columns * ROW_HEIGHT;
    }
}
