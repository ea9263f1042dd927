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
