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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Options that go together or exclude each other: refused before anything attaches, exit code 2, one line. */
class InspectOptionsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--count 3|--count and --full go with --watch",
        "--full|--count and --full go with --watch",
        "--watch 1 --count 0|--count needs a positive number of samples",
        "--native-callers 0|--native-callers needs a positive number of seconds",
        "--native-callers 5 --watch 5|--native-callers and --watch exclude each other",
        "--no-attach --virtual-threads|--no-attach and --virtual-threads exclude each other",
        "--no-attach --native-callers 5|--no-attach and --native-callers exclude each other",
        "--watch 0|--watch needs a positive number of seconds"})
    void refused(String options, String message) {
        InspectRun.Result result = InspectRun.run(ProcessHandle.current().pid(), options.split(" "));

        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains(message);
    }

    @Test
    void aRecordHasEverySampleAsALineOfJsonAndAnotherWatchAppendsToIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("record.jsonl");
        long pid = ProcessHandle.current().pid();

        InspectRun.Result first = InspectRun.run(pid, "--no-attach", "--watch", "1", "--count", "3", "--record", file.toString());
        InspectRun.Result second = InspectRun.run(pid, "--no-attach", "--record", file.toString());

        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(first.out()).as("the tables still go to the output").startsWith("offheap inspect ");
        java.util.List<String> lines = java.nio.file.Files.readAllLines(file);
        assertThat(lines).hasSize(4).allSatisfy(line -> assertThat(MiniJson.object(line)).containsEntry("version", 3L));
        assertThat(MiniJson.object(lines.get(2))).containsKeys("delta", "growth");
        assertThat(MiniJson.object(lines.get(3))).doesNotContainKey("growth");
    }

    @Test
    void aRecordThatCannotBeWrittenIsOneLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        InspectRun.Result result = InspectRun.run(ProcessHandle.current().pid(), "--no-attach", "--record",
                dir.resolve("no/such/dir/record.jsonl").toString());

        assertThat(result.exit()).isEqualTo(InspectException.FAILED);
        assertThat(result.err()).startsWith("offheap inspect: cannot write the record ").hasLineCount(1);
    }

    @Test
    void aCountEndsAWatch() {
        InspectRun.Result result = InspectRun.run(ProcessHandle.current().pid(), "--no-attach", "--watch", "1", "--count",
                "2");

        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).startsWith("offheap inspect ").contains("  RSS ");
    }
}
