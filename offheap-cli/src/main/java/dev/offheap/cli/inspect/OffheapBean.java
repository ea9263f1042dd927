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
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.Attribute;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;

/**
 * One of offheap's own MBeans in the target ({@code dev.offheap:type=BufferPool|ChunkPool|MemoryBudget,name=...}),
 * with its numeric attributes ({@code BytesFromOs}, {@code BytesInUse}, {@code UsedBytes}...) as the MBean
 * gives them ({@code Long}, {@code Integer}, {@code Double}: a hit rate stays a fraction), and a pool's
 * {@code AddressRanges}.
 *
 * @param type the {@code type} key: {@code BufferPool}, {@code ChunkPool}, {@code MemoryBudget}...
 * @param name the {@code name} key
 * @param numbers the attributes whose values are numbers
 * @param path a budget's {@code Path}, or null
 * @param addressRanges a pool's {@code AddressRanges} pairs (start, end), empty for other beans and for pools
 *        of an offheap version that does not publish them
 */
record OffheapBean(String type, String name, Map<String, Number> numbers, String path, long[] addressRanges) {

    OffheapBean(String type, String name, Map<String, ? extends Number> numbers, String path) {
        this(type, name, Collections.unmodifiableMap(new LinkedHashMap<>(numbers)), path, new long[0]);
    }

    boolean isPool() {
        return type.endsWith("Pool");
    }

    long number(String attribute) {
        return numbers.getOrDefault(attribute, 0L).longValue();
    }

    /** The pool's addresses as ranges whose resident pages are the {@code offheap} part. */
    List<OwnedRange> ranges() {
        List<OwnedRange> ranges = new ArrayList<>();
        for (int i = 0; i + 1 < addressRanges.length; i += 2) {
            if (addressRanges[i + 1] > addressRanges[i]) {
                ranges.add(new OwnedRange(addressRanges[i], addressRanges[i + 1], PartName.OFFHEAP.key(), owner(), false));
            }
        }
        return ranges;
    }

    /** {@code type/name}, the key of its resident bytes in {@link ProcessMemory#byOwner()}. */
    String owner() {
        return type + "/" + name;
    }

    /** Bytes of addresses the pool holds, reserved or not. */
    long reservedBytes() {
        long total = 0;
        for (int i = 0; i + 1 < addressRanges.length; i += 2) {
            total += addressRanges[i + 1] - addressRanges[i];
        }
        return total;
    }

    /** Every {@code dev.offheap} MBean of the target, pools first. */
    static List<OffheapBean> readAll(MBeanServerConnection server) throws IOException {
        List<OffheapBean> beans = new ArrayList<>();
        try {
            Set<ObjectName> names = server.queryNames(new ObjectName("dev.offheap:*"), null);
            for (ObjectName on : names) {
                beans.add(read(server, on));
            }
        } catch (JMException e) {
            throw new IOException("cannot read the target's dev.offheap MBeans: " + e.getMessage(), e);
        }
        beans.sort((a, b) -> a.isPool() != b.isPool() ? (a.isPool() ? -1 : 1)
                : (a.type + a.name).compareTo(b.type + b.name));
        return beans;
    }

    private static OffheapBean read(MBeanServerConnection server, ObjectName on) throws IOException, JMException {
        MBeanAttributeInfo[] infos = server.getMBeanInfo(on).getAttributes();
        String[] names = new String[infos.length];
        for (int i = 0; i < infos.length; i++) {
            names[i] = infos[i].getName();
        }
        Map<String, Number> numbers = new LinkedHashMap<>();
        String path = null;
        long[] ranges = new long[0];
        for (Attribute a : server.getAttributes(on, names).asList()) {
            if (a.getValue() instanceof Number n) {
                numbers.put(a.getName(), n);
            } else if (a.getName().equals("AddressRanges") && a.getValue() instanceof long[] pairs) {
                ranges = pairs;
            } else if (a.getName().equals("Path") && a.getValue() != null) {
                path = a.getValue().toString();
            }
        }
        String name = on.getKeyProperty("name");
        if (name == null) {
            name = on.toString();
        } else if (name.startsWith("\"")) {
            name = ObjectName.unquote(name);
        }
        return new OffheapBean(String.valueOf(on.getKeyProperty("type")), name, numbers, path, ranges);
    }
}
