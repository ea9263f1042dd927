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

package dev.offheap.cli.inspect;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The target's diagnostic commands (what {@code jcmd PID COMMAND} runs), through its attach listener. The commands
 * it has are learnt once from {@code help}, so that a command an older JDK lacks ({@code System.native_heap_info}
 * and {@code System.map} in JDK 17) is absent rather than an error.
 */
final class DiagnosticCommands {
    private static final String HEADER = "The following commands are available:";

    private final AttachClient client;
    private final Set<String> available;

    DiagnosticCommands(AttachClient client) throws IOException {
        this.client = client;
        AttachClient.Reply help = client.jcmd("help");
        if (help.status() != 0) {
            throw new IOException("the target's 'help' failed: " + help.output().strip());
        }
        this.available = parseHelp(help.output());
        if (available.isEmpty()) {
            throw new IOException("the target's 'help' listed no commands");
        }
    }

    /** The command names {@code help} lists, in its order. */
    static Set<String> parseHelp(String output) {
        Set<String> names = new LinkedHashSet<>();
        boolean listing = false;
        for (String line : output.split("\n")) {
            String name = line.strip();
            if (name.equals(HEADER)) {
                listing = true;
            } else if (listing && name.isEmpty()) {
                break;
            } else if (listing && name.matches("[A-Za-z_][\\w.]*")) {
                names.add(name);
            }
        }
        return Collections.unmodifiableSet(names);
    }

    boolean has(String command) {
        return available.contains(command);
    }

    /**
     * The command's output; "Error: " and what the target said when the command failed; empty when the target
     * does not have the command (older JDK, other OS).
     */
    Optional<String> run(String command, String... arguments) throws IOException {
        if (!has(command)) {
            return Optional.empty();
        }
        String line = arguments.length == 0 ? command : command + " " + String.join(" ", arguments);
        AttachClient.Reply reply = client.jcmd(line);
        return Optional.of(reply.status() == 0 ? reply.output() : "Error: " + reply.output().strip());
    }
}
