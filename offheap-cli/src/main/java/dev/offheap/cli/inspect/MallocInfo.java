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

import java.io.IOException;
import java.io.StringReader;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * glibc's malloc statistics, from the XML of {@code malloc_info(3)} (what {@code jcmd PID
 * System.native_heap_info} prints).
 *
 * <p>How {@code mallinfo2}'s fields, which seed 002 uses, map onto malloc_info: {@code arena} (bytes taken
 * from the OS by the arenas) is the total {@code <system type="current">}; {@code fordblks} (free bytes) is
 * the total {@code <total type="fast">} plus {@code <total type="rest">} (every free chunk, including each
 * arena's top chunk); {@code uordblks} (in use, thread caches included) is {@code arena - fordblks};
 * {@code hblkhd} (chunks mapped on their own) is {@code <total type="mmap">}; {@code keepcost} (the top chunk
 * of the main arena, what trimming surely returns) is not printed, so it is derived per arena: top =
 * {@code rest - (sum of <size> totals - fast) - unsorted}, since {@code rest} counts the top chunk, the
 * regular bins and the unsorted bin, and the {@code <size>} lines list the fast bins and the regular bins.
 *
 * @param arenas number of arenas ({@code <heap>} elements)
 * @param systemBytes bytes the arenas took from the OS ({@code arena})
 * @param freeBytes free bytes inside the arenas ({@code fordblks})
 * @param mmappedBytes bytes of chunks mapped on their own ({@code hblkhd})
 * @param mmappedChunks how many such chunks
 * @param mainArenaTop the main arena's top chunk ({@code keepcost})
 * @param topBytes the top chunks of all arenas: what {@code malloc_trim} returns at least
 */
record MallocInfo(int arenas, long systemBytes, long freeBytes, long mmappedBytes, long mmappedChunks,
        long mainArenaTop, long topBytes) {

    /** Bytes handed out by malloc and not freed: arena chunks in use plus mapped chunks. */
    long inUseBytes() {
        return systemBytes - freeBytes + mmappedBytes;
    }

    /** All the memory malloc holds: its arenas and its mapped chunks. */
    long heldBytes() {
        return systemBytes + mmappedBytes;
    }

    /**
     * Seed 002's fragmentation: the share of the arenas' memory that cannot be returned to the OS and is not
     * in use, {@code (fordblks - keepcost) / (uordblks + fordblks - keepcost)}. The article prints it as
     * {@code 1 - uordblks / (fordblks - keepcost)}, which goes negative as soon as more is in use than free;
     * the denominator it describes ("memory that cannot be returned") is {@code arena - keepcost}.
     */
    double fragmentation() {
        long unreturnable = systemBytes - mainArenaTop;
        return unreturnable <= 0 ? 0 : (double) (freeBytes - mainArenaTop) / unreturnable;
    }

    /**
     * The share of what the arenas took from the OS that is free, {@code fordblks / arena}: both totals are
     * printed by malloc_info, so anyone can check it ({@code <total type="fast">} plus {@code <total type="rest">}
     * over {@code <system type="current">}).
     */
    double freeShare() {
        return systemBytes <= 0 ? 0 : (double) freeBytes / systemBytes;
    }

    static MallocInfo parse(String xml) {
        Element root = document(xml).getDocumentElement();
        int arenas = 0;
        long mainTop = 0;
        long tops = 0;
        long system = 0;
        long free = 0;
        long mmapped = 0;
        long mmappedChunks = 0;
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            switch (e.getTagName()) {
                case "heap" -> {
                    long top = topChunk(e);
                    if (arenas == 0) {
                        mainTop = top;
                    }
                    tops += top;
                    arenas++;
                }
                case "total" -> {
                    String type = e.getAttribute("type");
                    long size = number(e, "size");
                    if (type.equals("fast") || type.equals("rest")) {
                        free += size;
                    } else if (type.equals("mmap")) {
                        mmapped = size;
                        mmappedChunks = number(e, "count");
                    }
                }
                case "system" -> {
                    if (e.getAttribute("type").equals("current")) {
                        system = number(e, "size");
                    }
                }
                default -> { }
            }
        }
        return new MallocInfo(arenas, system, free, mmapped, mmappedChunks, mainTop, tops);
    }

    private static long topChunk(Element heap) {
        long fast = 0;
        long rest = 0;
        long binned = 0;
        long unsorted = 0;
        for (Node n = heap.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element e)) {
                continue;
            }
            switch (e.getTagName()) {
                case "sizes" -> {
                    for (Node s = e.getFirstChild(); s != null; s = s.getNextSibling()) {
                        if (s instanceof Element size) {
                            if (size.getTagName().equals("size")) {
                                binned += number(size, "total");
                            } else if (size.getTagName().equals("unsorted")) {
                                unsorted += number(size, "total");
                            }
                        }
                    }
                }
                case "total" -> {
                    if (e.getAttribute("type").equals("fast")) {
                        fast = number(e, "size");
                    } else if (e.getAttribute("type").equals("rest")) {
                        rest = number(e, "size");
                    }
                }
                default -> { }
            }
        }
        return Math.max(0, rest - (binned - fast) - unsorted);
    }

    private static long number(Element e, String attribute) {
        String value = e.getAttribute(attribute);
        return value.isEmpty() ? 0 : Long.parseLong(value);
    }

    private static Document document(String xml) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            DocumentBuilder builder = factory.newDocumentBuilder();
            // throws on fatal errors like the default handler, which also prints them to stderr
            builder.setErrorHandler(new DefaultHandler());
            return builder.parse(new InputSource(new StringReader(xml)));
        } catch (ParserConfigurationException | SAXException | IOException e) {
            throw new IllegalArgumentException("not malloc_info XML: " + e.getMessage(), e);
        }
    }

    /** The XML part of a diagnostic command's output (it may print a line before or after). */
    static String extractXml(String output) {
        int start = output.indexOf("<malloc");
        int end = output.lastIndexOf("</malloc>");
        return start < 0 || end < start ? null : output.substring(start, end + "</malloc>".length());
    }
}
