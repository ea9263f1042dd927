/**
 * Command-line front end of offheap.
 */
module dev.offheap.cli {
    requires dev.offheap.core;
    requires info.picocli;

    // picocli instantiates the command classes and injects their fields reflectively.
    opens dev.offheap.cli to info.picocli;
}
