package dev.offheap.cli.inspect;

import java.io.IOException;
import java.util.ArrayList;
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
 * with its numeric attributes ({@code BytesFromOs}, {@code BytesInUse}, {@code UsedBytes}...).
 *
 * @param type the {@code type} key: {@code BufferPool}, {@code ChunkPool}, {@code MemoryBudget}...
 * @param name the {@code name} key
 * @param numbers the attributes whose values are numbers
 * @param path a budget's {@code Path}, or null
 */
record OffheapBean(String type, String name, Map<String, Long> numbers, String path) {

    boolean isPool() {
        return type.endsWith("Pool");
    }

    long number(String attribute) {
        return numbers.getOrDefault(attribute, 0L);
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
        Map<String, Long> numbers = new LinkedHashMap<>();
        String path = null;
        for (Attribute a : server.getAttributes(on, names).asList()) {
            if (a.getValue() instanceof Number n) {
                numbers.put(a.getName(), n.longValue());
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
        return new OffheapBean(String.valueOf(on.getKeyProperty("type")), name, numbers, path);
    }
}
