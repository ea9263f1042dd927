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

package dev.offheap.lab.experiment.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The admin channel of the server mains, the same for every configuration: the server prints
 * {@code port=<n>} once it listens, then reads commands on standard input. {@code idle} runs the
 * configuration's trim (if it has one), then {@code System.gc()} (so memory freed by Cleaners goes too), and
 * answers {@code idle rss_kib=<n>}; {@code stop} or the end of input (the parent died) stops the server.
 */
public final class AdminConsole {
    /** The line a server prints once it accepts connections, followed by the port. */
    public static final String PORT = "port=";
    /** The command that trims and collects. */
    public static final String IDLE = "idle";
    /** The server's answer to {@link #IDLE}, followed by its RSS in KiB. */
    public static final String IDLE_ANSWER = "idle rss_kib=";
    /** The command that stops the server. */
    public static final String STOP = "stop";

    private AdminConsole() {}

    /** Announces {@code port} on standard output. */
    public static void announce(int port) {
        System.out.println(PORT + port);
        System.out.flush();
    }

    /** Serves commands on standard input until {@code stop} or its end; {@code trim} is the configuration's. */
    public static void serve(Runnable trim) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null && !line.strip().equals(STOP); line = in.readLine()) {
            if (line.strip().equals(IDLE)) {
                System.out.println(IDLE_ANSWER + idle(trim));
                System.out.flush();
            }
        }
    }

    /** Trims, collects, and returns this process's RSS in KiB (what {@code GET /idle} answers too). */
    public static long idle(Runnable trim) {
        trim.run();
        System.gc();
        return ProcMemory.selfKib(ProcMemory.RSS);
    }
}
