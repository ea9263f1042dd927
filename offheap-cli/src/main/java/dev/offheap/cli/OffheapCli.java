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

package dev.offheap.cli;

import dev.offheap.cli.inspect.InspectCommand;
import dev.offheap.cli.inspect.RecordCommand;
import dev.offheap.cli.inspect.ReportCommand;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Entry point of the {@code offheap} command.
 */
@Command(
        name = "offheap",
        mixinStandardHelpOptions = true,
        versionProvider = OffheapCli.VersionProvider.class,
        description = "Off-heap buffer pool tools, a native memory inspector for running JVMs, and a recorder of their memory"
                + " over time.",
        subcommands = {DemoCommand.class, InspectCommand.class, RecordCommand.class, ReportCommand.class},
        footerHeading = "%nCommands of the ./offheap launcher (from the repository):%n",
        footer = {
            "  lab       Re-runs the classic buffer experiments on this machine and reports",
            "              which buffer strategy wins here (about 3 minutes; see lab --help).",
            "  test      Runs the whole test suite through the Maven wrapper, then checks the",
            "              release artifacts as release does.",
            "  build     Builds everything, skipping the tests.",
            "  release   Builds what Maven Central needs (jars, sources and Javadoc jars, the",
            "              BOM; signatures aside) and checks it; publishes nothing.",
            "  mutation  Mutation testing (PIT) of one target: buffer, store, account, lab or",
            "              inspect.",
            "  dist      Builds the self-contained image (a Java runtime of its own, the CLI,",
            "              bin/offheap) and its .tar.gz, for machines without a JDK."})
public final class OffheapCli implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Creates the top-level command; picocli calls it. */
    public OffheapCli() {
    }

    /**
     * Runs the command line and exits with its exit code.
     *
     * @param args the command-line arguments
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new OffheapCli()).setParameterExceptionHandler(OffheapCli::refuse).execute(args));
    }

    /**
     * A command line it cannot read: the message, picocli's suggestions when it has any, and always the usage of the
     * command that refused it (picocli's own handler prints the usage only when it has no suggestion, and a
     * suggestion can be far off: "no-such-command" was answered with "Did you mean: offheap record?" alone).
     */
    static int refuse(CommandLine.ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        java.io.PrintWriter err = cmd.getErr();
        err.println(e.getMessage());
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            CommandLine.UnmatchedArgumentException.printSuggestions(unmatched, err);
        }
        cmd.usage(err);
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** Called when no subcommand is given. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** The version of the jar (from its manifest or module descriptor), or 1.0.0. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = OffheapCli.class.getPackage().getImplementationVersion();
            if (version == null) {
                version = OffheapCli.class.getModule().getDescriptor() == null
                        ? null
                        : OffheapCli.class.getModule().getDescriptor().rawVersion().orElse(null);
            }
            return new String[] {"offheap " + (version == null ? "1.0.0" : version)};
        }
    }
}
