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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code offheap --help} names every command, the CLI's own and those the ./offheap launcher routes itself. */
class HelpListsEveryCommandTest {
    private static final Pattern LAUNCHER_CASE = Pattern.compile("(?m)^    ([a-z]+)\\)$");
    private static final Pattern LAUNCHER_IF = Pattern.compile("\\[\\[ \"\\$\\{1:-}\" == ([a-z]+) ]]");

    @Test
    void theHelpNamesEveryCommandOfTheCliAndOfTheLauncher() throws Exception {
        String help = new CommandLine(new OffheapCli()).getUsageMessage(CommandLine.Help.Ansi.OFF);
        String launcher = Files.readString(Path.of("../offheap"));
        Set<String> commands = new TreeSet<>(Set.of("demo", "inspect"));
        for (Pattern p : new Pattern[] {LAUNCHER_CASE, LAUNCHER_IF}) {
            Matcher m = p.matcher(launcher);
            while (m.find()) {
                commands.add(m.group(1));
            }
        }

        assertThat(commands).contains("lab", "test", "build", "mutation");
        for (String command : commands) {
            assertThat(help).as(command).containsPattern("(?m)^  " + command + " +[A-Z]");
        }
    }
}
