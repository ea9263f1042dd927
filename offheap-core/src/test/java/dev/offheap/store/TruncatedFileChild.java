package dev.offheap.store;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Run in a child JVM by {@link TruncatedBehindOurBackTest}: maps a file, lets another channel truncate it
 * (as another process could), then reads and writes the lost pages. Prints {@code THREW <class>} for each,
 * or {@code NO-THROW}; if the JVM died of the SIGBUS instead, it prints nothing.
 */
public final class TruncatedFileChild {
    private TruncatedFileChild() {}

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        try (MappedArray array = MappedArray.create(file, ElementType.LONG, 1 << 20);
             LongArray longs = array.longs()) {
            longs.set(1 << 19, 5);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(4096);
            }
            try {
                long sum = 0;
                for (int round = 0; round < 3; round++) {
                    for (long i = 0; i < longs.length(); i++) {
                        sum += longs.get(i);
                    }
                }
                System.out.println("NO-THROW read " + sum);
            } catch (Throwable t) {
                System.out.println("THREW " + t.getClass().getName() + " on read");
            }
            try {
                longs.set(7, 1);
                System.out.println("NO-THROW write");
            } catch (Throwable t) {
                System.out.println("THREW " + t.getClass().getName() + " on write");
            }
        }
        System.out.println("CLOSED");
    }
}
