package dev.offheap.lab.experiment.server;

import java.util.SplittableRandom;

/** The bytes every server answers with: the same pseudo-random content for every configuration. */
final class Body {
    /** The largest body a server is asked for. */
    static final int MAX = 16 << 20;

    private Body() {}

    /** {@code size} bytes of fixed content. */
    static byte[] of(int size) {
        if (size < 0 || size > MAX) {
            throw new IllegalArgumentException("body of " + size + " bytes: expected 0 to " + MAX);
        }
        byte[] bytes = new byte[size];
        new SplittableRandom(13).nextBytes(bytes);
        return bytes;
    }
}
