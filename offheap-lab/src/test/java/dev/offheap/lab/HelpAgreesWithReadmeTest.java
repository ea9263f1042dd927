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

package dev.offheap.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What {@code offheap lab --help} says the quick lab takes is what the README says, everywhere it says it. */
class HelpAgreesWithReadmeTest {
    private static final Pattern MINUTES = Pattern.compile("about (\\d+|one|two|three|four|five) minutes?");

    @Test
    void theReadmeGivesTheQuickLabTheDurationTheHelpGivesIt() throws Exception {
        Matcher help = MINUTES.matcher(LabOptions.USAGE.lines().filter(l -> l.strip().startsWith("--quick")).findFirst()
                .orElseThrow());
        assertThat(help.find()).as("lab --help states how long --quick takes").isTrue();
        String said = help.group();
        List<String> readme = Files.readAllLines(Path.of("..", "README.md"));
        List<String> labLines = readme.stream()
                .filter(l -> l.contains("./offheap lab") || l.contains("`--quick` (the default)"))
                .filter(l -> MINUTES.matcher(l).find()).toList();
        assertThat(labLines).as("README lines that time the lab").hasSizeGreaterThanOrEqualTo(3);
        for (String line : labLines) {
            Matcher m = MINUTES.matcher(line);
            m.find();
            assertThat(m.group()).as(line).isEqualTo(said);
        }
    }
}
