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
package dev.offheap.metrics.jmx;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.management.MBeanServerFactory;

/**
 * Registrations that wait for the JVM's platform {@code MBeanServer} ({@link Jmx.Mode#WHEN_SERVER_EXISTS}):
 * making that server loads JMX's implementation (about 500 classes and 2 MB of metaspace), which a JVM that
 * never uses JMX should not pay for offheap's pools. While some wait, one daemon thread
 * ({@value #THREAD_NAME}) looks every {@value #PERIOD_MILLIS} ms whether the server exists (a read of
 * {@code MBeanServerFactory}'s list, where {@code ManagementFactory} puts it: nothing is made), registers
 * everything waiting once it does, and ends; a JMX agent started later (jconsole, {@code jcmd
 * ManagementAgent.start_local}, {@code offheap inspect --jmx}) sees the pools within that period.
 */
final class PlatformServerWatch {
    /** The watching thread's name, which {@code offheap inspect} looks for in the target. */
    static final String THREAD_NAME = "offheap-jmx-wait";
    static final long PERIOD_MILLIS = 250;

    private static final System.Logger LOG = System.getLogger(PlatformServerWatch.class.getName());
    /** Guarded by the class. */
    private static final List<Waiting> WAITING = new ArrayList<>();
    /** Guarded by the class; null while no thread watches. */
    private static Thread watcher;

    private PlatformServerWatch() {}

    /** Whether some MBean server exists (the platform one is made through the same factory). */
    static boolean exists() {
        return !MBeanServerFactory.findMBeanServer(null).isEmpty();
    }

    /** A registration {@code register} makes once the server exists; closing it first cancels it. */
    static Registration later(Supplier<Registration> register) {
        Waiting waiting = new Waiting(register);
        Registration registration = new Registration(null, waiting::cancel);
        waiting.registration = registration;
        synchronized (PlatformServerWatch.class) {
            WAITING.add(waiting);
            if (watcher == null) {
                watcher = Thread.ofPlatform().daemon().name(THREAD_NAME).start(PlatformServerWatch::watch);
            }
        }
        return registration;
    }

    private static void watch() {
        try {
            while (!exists()) {
                Thread.sleep(PERIOD_MILLIS);
            }
        } catch (InterruptedException stop) {
            Thread.currentThread().interrupt();
        }
        List<Waiting> due;
        synchronized (PlatformServerWatch.class) {
            due = List.copyOf(WAITING);
            WAITING.clear();
            watcher = null;
        }
        due.forEach(Waiting::register);
    }

    /** One registration waiting; its registration and cancel race only under the waiting's own lock. */
    private static final class Waiting {
        private final Supplier<Registration> register;
        Registration registration;
        private Registration done;
        private boolean cancelled;

        Waiting(Supplier<Registration> register) {
            this.register = register;
        }

        synchronized void register() {
            if (cancelled) {
                return;
            }
            try {
                done = register.get();
                done.objectName().ifPresent(registration::registeredAs);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "cannot register an MXBean in JMX; its component works on", e);
            }
        }

        void cancel() {
            synchronized (PlatformServerWatch.class) {
                WAITING.remove(this);
            }
            Registration registered;
            synchronized (this) {
                cancelled = true;
                registered = done;
            }
            if (registered != null) {
                registered.close();
            }
        }
    }
}
