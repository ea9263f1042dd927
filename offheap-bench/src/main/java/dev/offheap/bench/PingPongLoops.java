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

package dev.offheap.bench;

import dev.offheap.bench.SharedArrayPingPong.Cells;

/**
 * The loops of {@link SharedArrayPingPong}, one side of each test. {@link SharedArrayPingPong} loads a copy of
 * this class per implementation (its own class loader), so that every call site here sees one receiver type
 * ({@link Cells} implementation), as in an application that uses one, while the implementations take turns in
 * one pair of JVMs.
 */
public final class PingPongLoops {
    static final int PING = 0;
    static final int PONG = 16;
    static final int BALL = 32;
    static final int COUNTER = 48;
    static final int HEAD = 64;
    static final int TAIL = 80;
    static final int RING = 128;
    static final int RING_SIZE = 256;

    private PingPongLoops() {}

    public static void runLead(String test, Cells c, int base, int ops) {
        switch (test) {
            case "rtt" -> leadRoundTrips(c, base, ops);
            case "cas" -> leadCas(c, base, ops);
            case "stream" -> produce(c, base, ops);
            case "add" -> add(c, base, ops);
            default -> throw new IllegalArgumentException(test);
        }
    }

    public static void runPeer(String test, Cells c, int base, int ops) {
        switch (test) {
            case "rtt" -> peerRoundTrips(c, base, ops);
            case "cas" -> peerCas(c, base, ops);
            case "stream" -> consume(c, base, ops);
            case "add" -> add(c, base, ops);
            default -> throw new IllegalArgumentException(test);
        }
    }

    private static void leadRoundTrips(Cells c, int base, int ops) {
        int ping = base + PING;
        int pong = base + PONG;
        int spins = 0;
        for (long i = 1; i <= ops; i++) {
            c.setRelease(ping, i);
            while (c.getAcquire(pong) != i) {
                spins = pause(spins);
            }
        }
    }

    private static void peerRoundTrips(Cells c, int base, int ops) {
        int ping = base + PING;
        int pong = base + PONG;
        int spins = 0;
        for (long i = 1; i <= ops; i++) {
            while (c.getAcquire(ping) != i) {
                spins = pause(spins);
            }
            c.setRelease(pong, i);
        }
    }

    private static void leadCas(Cells c, int base, int ops) {
        passBall(c, base + BALL, ops, 0);
    }

    private static void peerCas(Cells c, int base, int ops) {
        passBall(c, base + BALL, ops, 1);
    }

    private static void passBall(Cells c, int ball, int ops, int side) {
        int spins = 0;
        for (long i = 0; i < ops; i++) {
            long mine = 2 * i + side;
            while (c.getVolatile(ball) != mine) {
                spins = pause(spins);
            }
            if (!c.compareAndSet(ball, mine, mine + 1)) {
                throw new AssertionError("the ball moved under its holder at " + mine);
            }
        }
    }

    private static void produce(Cells c, int base, int ops) {
        int head = base + HEAD;
        int tail = base + TAIL;
        int ring = base + RING;
        long seenTail = 0;
        int spins = 0;
        for (long i = 0; i < ops; i++) {
            while (i - seenTail >= RING_SIZE) {
                seenTail = c.getAcquire(tail);
                if (i - seenTail >= RING_SIZE) {
                    spins = pause(spins);
                }
            }
            c.set(ring + (int) (i & (RING_SIZE - 1)), i + 1);
            c.setRelease(head, i + 1);
        }
        while (c.getAcquire(tail) != ops) {
            spins = pause(spins);
        }
    }

    private static void consume(Cells c, int base, int ops) {
        int head = base + HEAD;
        int tail = base + TAIL;
        int ring = base + RING;
        long seenHead = 0;
        int spins = 0;
        for (long i = 0; i < ops; i++) {
            while (seenHead <= i) {
                seenHead = c.getAcquire(head);
                if (seenHead <= i) {
                    spins = pause(spins);
                }
            }
            long value = c.get(ring + (int) (i & (RING_SIZE - 1)));
            if (value != i + 1) {
                throw new AssertionError("value " + i + " read as " + value);
            }
            c.setRelease(tail, i + 1);
        }
    }

    private static void add(Cells c, int base, int ops) {
        int counter = base + COUNTER;
        for (int i = 0; i < ops; i++) {
            c.getAndAdd(counter, 1);
        }
    }

    static int pause(int spins) {
        if ((++spins & 255) == 0) {
            Thread.yield();
        } else {
            Thread.onSpinWait();
        }
        return spins;
    }
}
