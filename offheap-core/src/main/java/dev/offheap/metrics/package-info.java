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

/**
 * What offheap shows to monitoring tools: JMX MXBeans and JFR events.
 *
 * <h2>JMX</h2>
 * Every pool registers an MXBean in the platform {@code MBeanServer} and unregisters it when it is closed: at
 * build if that server exists already, else as soon as something makes it (a JMX agent started later,
 * jconsole, {@code offheap inspect --jmx}), so that a JVM that never uses JMX never loads it for offheap
 * ({@code Builder.jmx(true)} registers at build, making the server; {@code Builder.jmx(false)} opts out):
 * <ul>
 *   <li>{@code dev.offheap:type=BufferPool,name=<pool name>}: {@link BufferPoolMXBean}</li>
 *   <li>{@code dev.offheap:type=ChunkPool,name=<pool name>}: {@link ChunkPoolMXBean}</li>
 *   <li>{@code dev.offheap:type=MemoryBudget,name=<budget path>}: {@link MemoryBudgetMXBean}</li>
 * </ul>
 * A name that {@code ObjectName} cannot hold as it is is {@link javax.management.ObjectName#quote quoted}. A
 * name already registered gets a suffix: the second pool named {@code io} is {@code io-2}, the third
 * {@code io-3}, and so on; the {@code Name} and {@code Path} attributes keep the real names.
 *
 * <p>A budget is registered while a registered pool charges it, directly or through a child: the first such
 * pool registers it and its ancestors, the last one to close unregisters them. A budget no pool uses is not
 * shown, so building and dropping budgets costs nothing.
 *
 * <p>Reading an attribute is cheap. A chunk pool's figures are counters read under a short lock. A buffer
 * pool's "bytes from the OS" and "peak" are counters; the figures that need a walk over every slot (bytes in
 * use and cached, leases, acquires, hit rate, leaks) come from a snapshot taken at most once a second, so
 * monitoring costs at most one walk a second however often and by however many clients it polls.
 *
 * <h2>JFR</h2>
 * Events of category {@code offheap}, committed only on slow paths (never per acquire or release):
 * {@value OffheapEvents#SLAB_ALLOCATED}, {@value OffheapEvents#SLAB_RELEASED},
 * {@value OffheapEvents#CHUNK_ALLOCATED}, {@value OffheapEvents#CHUNK_RELEASED},
 * {@value OffheapEvents#POOL_TRIMMED}, {@value OffheapEvents#BUDGET_EXCEEDED} and
 * {@value OffheapEvents#LEAK_REPORTED}. They are enabled by default in any recording, e.g.
 * {@code -XX:StartFlightRecording} or {@code jcmd PID JFR.start}.
 */
package dev.offheap.metrics;
