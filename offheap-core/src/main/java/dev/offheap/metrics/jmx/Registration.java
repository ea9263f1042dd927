package dev.offheap.metrics.jmx;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.ObjectName;

/** What a component registered in JMX; closing it unregisters that, once. */
public final class Registration implements AutoCloseable {
    /** Nothing registered: JMX turned off, or registration failed (and was logged). */
    public static final Registration NONE = new Registration(null, () -> {});

    private final ObjectName name;
    private final Runnable undo;
    private final AtomicBoolean closed = new AtomicBoolean();

    Registration(ObjectName name, Runnable undo) {
        this.name = name;
        this.undo = undo;
    }

    /** The name the component's MXBean got, with its suffix if it needed one. */
    public Optional<ObjectName> objectName() {
        return Optional.ofNullable(name);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            undo.run();
        }
    }
}
