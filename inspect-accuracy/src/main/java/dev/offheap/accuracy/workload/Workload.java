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

package dev.offheap.accuracy.workload;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import javax.management.ObjectName;

/**
 * What every workload shares: it reaches its steady state, registers its own figures as the MBean
 * {@code dev.offheap.accuracy:type=Workload} (attribute {@code Figures}, {@code key=value} lines, bytes or counts),
 * prints {@code READY} and holds still until killed.
 */
public final class Workload {
    private Workload() {}

    /** The MBean's interface: one text attribute, so any JMX client reads it without our classes. */
    public interface FiguresMBean {
        /** {@code key=value} lines. */
        String getFigures();
    }

    /** The MBean. */
    public static final class Figures implements FiguresMBean {
        private final Supplier<Map<String, Long>> figures;

        Figures(Supplier<Map<String, Long>> figures) {
            this.figures = figures;
        }

        @Override
        public String getFigures() {
            StringBuilder text = new StringBuilder();
            Map<String, Long> all = new LinkedHashMap<>(figures.get());
            all.putAll(jemalloc());
            all.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
            return text.toString();
        }
    }

    /** Registers the figures, prints READY and returns; the caller then holds (see {@link #hold()}). */
    public static void ready(String name, Supplier<Map<String, Long>> figures) throws Exception {
        ManagementFactory.getPlatformMBeanServer().registerMBean(new Figures(figures),
                new ObjectName("dev.offheap.accuracy:type=Workload"));
        System.out.println("READY " + name + " pid=" + ProcessHandle.current().pid() + " " + new Figures(figures)
                .getFigures().replace('\n', ' ').trim());
        System.out.flush();
    }

    /** Sleeps until the process is killed. */
    public static void hold() throws InterruptedException {
        while (true) {
            Thread.sleep(60_000);
        }
    }

    public static void log(String message) {
        System.out.println(message);
        System.out.flush();
    }

    /** An integer argument {@code name=value} from {@code args}, or the default. */
    public static long arg(String[] args, String name, long otherwise) {
        for (String a : args) {
            if (a.startsWith(name + "=")) {
                return Long.parseLong(a.substring(name.length() + 1));
            }
        }
        return otherwise;
    }

    /** A text argument {@code name=value} from {@code args}, or the default. */
    public static String text(String[] args, String name, String otherwise) {
        for (String a : args) {
            if (a.startsWith(name + "=")) {
                return a.substring(name.length() + 1);
            }
        }
        return otherwise;
    }

    /**
     * jemalloc's own statistics when it is the process's malloc and the JVM has the FFM API (22+), else
     * nothing. Read reflectively: the class is compiled with release 22, this one with 17.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Long> jemalloc() {
        if (Runtime.version().feature() < 22 || !mapsJemalloc()) {
            return Map.of();
        }
        try {
            return (Map<String, Long>) Class.forName("dev.offheap.accuracy.workload.Jemalloc").getMethod("stats")
                    .invoke(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Map.of("jemalloc.unavailable", -1L);
        }
    }

    private static boolean mapsJemalloc() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/maps")).contains("libjemalloc");
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
