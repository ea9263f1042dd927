package dev.offheap.cli;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;

/**
 * {@code offheap demo}: a short demonstration of the buffer pool.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Runs a short demonstration of the buffer pool")
final class DemoCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.out.println("demo: not yet implemented");
        return 0;
    }
}
