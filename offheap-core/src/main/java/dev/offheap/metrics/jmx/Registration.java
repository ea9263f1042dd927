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

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.ObjectName;

/**
 * What a component registered in JMX, or will register once the platform {@code MBeanServer} exists
 * ({@link Jmx.Mode#WHEN_SERVER_EXISTS}); closing it unregisters that, or cancels it, once.
 */
public final class Registration implements AutoCloseable {
    /** Nothing registered: JMX turned off, or registration failed (and was logged). */
    public static final Registration NONE = new Registration(null, () -> {});

    private volatile ObjectName name;
    private final Runnable undo;
    private final AtomicBoolean closed = new AtomicBoolean();

    Registration(ObjectName name, Runnable undo) {
        this.name = name;
        this.undo = undo;
    }

    /** The name the component's MXBean got, with its suffix if it needed one; empty until it is registered. */
    public Optional<ObjectName> objectName() {
        return Optional.ofNullable(name);
    }

    /** A deferred registration took place under {@code registered}. */
    void registeredAs(ObjectName registered) {
        this.name = registered;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            undo.run();
        }
    }
}
