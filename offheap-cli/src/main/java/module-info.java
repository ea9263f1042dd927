/**
 * Command-line front end of offheap.
 */
module dev.offheap.cli {
    requires dev.offheap.core;
    requires info.picocli;
    // offheap inspect: the Attach API, JMX over the target's local management agent, malloc_info's XML.
    requires jdk.attach;
    requires java.management;
    requires java.management.rmi;
    requires java.xml;

    // picocli instantiates the command classes and injects their fields reflectively.
    opens dev.offheap.cli to info.picocli;
    opens dev.offheap.cli.inspect to info.picocli;
}
