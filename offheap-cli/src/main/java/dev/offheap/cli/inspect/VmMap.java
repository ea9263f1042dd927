package dev.offheap.cli.inspect;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM's own labels for its mappings, from {@code System.map} (JDK 22+): {@code JAVAHEAP}, {@code CODE},
 * {@code META}, {@code CLASS}, {@code GC}, {@code CARDTBL}, {@code STACK-tid-name}, {@code CDS},
 * {@code INTERN}... The labels come from NMT: without it the command prints no labels and this map is empty.
 *
 * @param labels label by first address, with the range's end
 */
record VmMap(NavigableMap<Long, Map.Entry<Long, String>> labels) {
    private static final Pattern LINE = Pattern.compile(
            "^0x([0-9a-fA-F]+)-0x([0-9a-fA-F]+)\\s+\\d+\\s+\\S+\\s+\\d+\\s+\\d+\\s+\\S+\\s+\\S+\\s+(\\S+)");

    static final VmMap EMPTY = new VmMap(new TreeMap<>());

    boolean isEmpty() {
        return labels.isEmpty();
    }

    /** The label of the range holding the mapping ({@code STACK-42-main} reads {@code STACK}), or null. */
    String label(Mapping mapping) {
        Map.Entry<Long, Map.Entry<Long, String>> e = labels.floorEntry(mapping.start());
        if (e == null || e.getValue().getKey() < mapping.end()) {
            return null;
        }
        String label = e.getValue().getValue();
        int dash = label.indexOf('-');
        return dash > 0 ? label.substring(0, dash) : label;
    }

    static VmMap parse(String text) {
        NavigableMap<Long, Map.Entry<Long, String>> labels = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher m = LINE.matcher(line);
            if (m.find() && !m.group(3).equals("-")) {
                labels.put(Long.parseUnsignedLong(m.group(1), 16),
                        Map.entry(Long.parseUnsignedLong(m.group(2), 16), m.group(3)));
            }
        }
        return new VmMap(labels);
    }
}
