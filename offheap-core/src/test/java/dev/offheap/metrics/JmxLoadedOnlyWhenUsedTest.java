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
package dev.offheap.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.ChildJvm;
import dev.offheap.buffer.BufferPool;
import dev.offheap.store.ChunkPool;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM that never uses JMX does not load it because it uses offheap's pools (making the platform MBean server
 * loads about 500 classes and 2 MB of metaspace, part of what an idle server's RSS was made of, issue 27); once
 * something makes that server, the pools show in it within a quarter of a second, and a pool closed before
 * then never shows.
 */
@Tag("child-jvm")
class JmxLoadedOnlyWhenUsedTest {

    /** Builds pools with the default JMX setting and prints whether the platform MBean server was made. */
    public static final class NeverJmx {
        public static void main(String[] args) {
            try (BufferPool pool = BufferPool.builder().name("quiet").build();
                    ChunkPool chunks = ChunkPool.builder().name("quiet-chunks").build()) {
                pool.acquire(1024).release();
                chunks.longs(1024).release();
                System.out.println("watching=" + Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(t -> t.getName().equals("offheap-jmx-wait")));
            }
            System.out.println("OK");
        }
    }

    /** Builds pools, then makes the platform MBean server, as a JMX agent started later would. */
    public static final class JmxLater {
        public static void main(String[] args) throws Exception {
            BufferPool early = BufferPool.builder().name("early").build();
            BufferPool closedEarly = BufferPool.builder().name("closed-early").build();
            closedEarly.close();
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("dev.offheap:type=BufferPool,name=early");
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!server.isRegistered(name) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            System.out.println("early=" + server.isRegistered(name));
            System.out.println("closedEarly="
                    + server.isRegistered(new ObjectName("dev.offheap:type=BufferPool,name=closed-early")));
            System.out.println("budget=" + server.isRegistered(new ObjectName("dev.offheap:type=MemoryBudget,name=early")));
            BufferPool late = BufferPool.builder().name("late").build();
            System.out.println("late=" + server.isRegistered(new ObjectName("dev.offheap:type=BufferPool,name=late")));
            early.close();
            late.close();
            System.out.println("afterClose=" + server.queryNames(new ObjectName("dev.offheap:*"), null).size());
        }
    }

    @Test
    void aJvmThatNeverUsesJmxNeverLoadsItForThePools(@TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m", List.of("-Xlog:class+load=info"), Duration.ofMinutes(2),
                NeverJmx.class);

        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains("watching=true").contains("OK");
        assertThat(child.output().lines().filter(l -> l.contains(" com.sun.jmx.mbeanserver.JmxMBeanServer ")
                || l.contains(" javax.management.StandardMBean ") || l.contains(" sun.management.ManagementFactoryHelper ")))
                .as("JMX's implementation classes loaded").isEmpty();
    }

    @Test
    void poolsShowOnceSomethingMakesThePlatformMBeanServer(@TempDir Path dir) throws Exception {
        ChildJvm child = ChildJvm.run(dir, "128m", List.of(), Duration.ofMinutes(2), JmxLater.class);

        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains("early=true").contains("closedEarly=false").contains("budget=true")
                .contains("late=true").contains("afterClose=0");
    }
}
