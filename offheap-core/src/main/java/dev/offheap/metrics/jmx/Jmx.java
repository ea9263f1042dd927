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

import dev.offheap.account.MemoryBudget;
import java.lang.management.ManagementFactory;
import java.util.List;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Registers offheap's MXBeans in the platform {@code MBeanServer} as {@code dev.offheap:type=T,name=N}, with
 * a suffix {@code -2}, {@code -3}... when N is taken. Monitoring never breaks the component it watches: a
 * failure is logged and the component works on unregistered.
 */
public final class Jmx {
    public static final String DOMAIN = "dev.offheap";

    private static final System.Logger LOG = System.getLogger(Jmx.class.getName());
    private static final String NEEDS_QUOTES = ",=:\"*?\n\\";

    private Jmx() {}

    /** When a component's MXBean is registered. */
    public enum Mode {
        /** Never. */
        OFF,
        /** At once, making the JVM's platform {@code MBeanServer} if nothing did yet. */
        AT_ONCE,
        /**
         * Once the platform {@code MBeanServer} exists: at once if something made it already (a JMX agent, a
         * framework, the application), else as soon as something does ({@link PlatformServerWatch}). A JVM
         * that never uses JMX then never loads it (about 500 classes and 2 MB of metaspace).
         */
        WHEN_SERVER_EXISTS
    }

    /**
     * Registers a pool's MXBean, when {@code mode} says, and shows the budgets it charges (with their ancestors)
     * while it is registered.
     */
    public static <T> Registration registerPool(Mode mode, String type, String name, Class<T> mxbeanInterface,
            T mxbean, List<MemoryBudget> budgets) {
        return switch (mode) {
            case OFF -> Registration.NONE;
            case AT_ONCE -> registerPoolNow(type, name, mxbeanInterface, mxbean, budgets);
            case WHEN_SERVER_EXISTS -> PlatformServerWatch.exists()
                    ? registerPoolNow(type, name, mxbeanInterface, mxbean, budgets)
                    : PlatformServerWatch.later(() -> registerPoolNow(type, name, mxbeanInterface, mxbean, budgets));
        };
    }

    private static <T> Registration registerPoolNow(String type, String name, Class<T> mxbeanInterface, T mxbean,
            List<MemoryBudget> budgets) {
        // The budgets first: a reader that sees the pool sees its budgets.
        List<Registration> uses = budgets.stream().map(BudgetBeans::use).toList();
        ObjectName registered = registerUnique(type, name, new StandardMBean(mxbean, mxbeanInterface, true));
        if (registered == null) {
            uses.forEach(Registration::close);
            return Registration.NONE;
        }
        return new Registration(registered, () -> {
            unregister(registered);
            uses.forEach(Registration::close);
        });
    }

    /** The name {@code name} would get if free: quoted when {@code ObjectName} cannot hold it as it is. */
    public static ObjectName objectName(String type, String name) {
        boolean quote = name.isEmpty() || name.chars().anyMatch(c -> NEEDS_QUOTES.indexOf(c) >= 0);
        try {
            return new ObjectName(DOMAIN + ":type=" + type + ",name=" + (quote ? ObjectName.quote(name) : name));
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("no JMX name for " + type + " '" + name + "'", e);
        }
    }

    /** Registers {@code mbean} under the first free name of {@code name}, {@code name-2}, ...; null on failure. */
    static ObjectName registerUnique(String type, String name, Object mbean) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            for (int n = 1; ; n++) {
                ObjectName candidate = objectName(type, n == 1 ? name : name + "-" + n);
                try {
                    server.registerMBean(mbean, candidate);
                    return candidate;
                } catch (InstanceAlreadyExistsException taken) {
                    // try the next suffix
                }
            }
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot register " + type + " '" + name + "' in JMX; it works on"
                    + " without showing there", e);
            return null;
        }
    }

    static void unregister(ObjectName name) {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            // someone unregistered it for us
        } catch (JMException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot unregister " + name + " from JMX", e);
        }
    }
}
