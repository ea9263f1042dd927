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

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The commands a target has, from its {@code help}. */
class DiagnosticCommandsTest {

    @Test
    void helpListsTheCommandNamesBetweenItsHeaderAndTheBlankLine() {
        String help = """
                The following commands are available:
                Compiler.codecache
                GC.heap_info
                System.native_heap_info
                VM.flags
                help

                For more information about a specific command use 'help <command>'.
                """;

        assertThat(DiagnosticCommands.parseHelp(help)).containsExactly("Compiler.codecache", "GC.heap_info",
                "System.native_heap_info", "VM.flags", "help");
    }

    @Test
    void withoutTheHeaderThereIsNoCommand() {
        assertThat(DiagnosticCommands.parseHelp("java.lang.IllegalArgumentException: Unknown diagnostic command\n")).isEmpty();
        assertThat(DiagnosticCommands.parseHelp("")).isEmpty();
    }
}
