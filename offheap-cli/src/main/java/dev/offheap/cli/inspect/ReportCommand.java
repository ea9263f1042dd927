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

import dev.offheap.recorder.RecordReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code offheap report RECORD}: the HTML page of a record, the JSON lines of {@code inspect --record} or of the
 * recorder ({@link dev.offheap.recorder.RecordReport}).
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draws a record as one HTML page: the parts of the process's memory stacked over time, the"
            + " container's limit and the JVM's ceilings, each part's rate, and the findings on the time axis.",
            "A record is what inspect --watch --record FILE appends, or what the recorder (offheap record, or"
            + " -javaagent:offheap-recorder.jar) writes beside its own HTML reports."})
public final class ReportCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RECORD", description = "The record: JSON lines.")
    private Path record;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Where to write the page (default: the"
            + " record's name with .html).")
    private Path out;

    /** Creates the command; picocli calls it. */
    public ReportCommand() {
    }

    @Override
    public Integer call() {
        if (!Files.isReadable(record)) {
            spec.commandLine().getErr().println("offheap report: cannot read " + record);
            return InspectException.FAILED;
        }
        Path html = out != null ? out : record.resolveSibling(stripJsonl(record.getFileName().toString()) + ".html");
        try {
            int samples = RecordReport.write(record, html);
            spec.commandLine().getOut().println("offheap report: " + samples + " samples of " + record + " drawn in " + html);
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("offheap report: " + e.getMessage());
            return InspectException.FAILED;
        }
    }

    static String stripJsonl(String name) {
        for (String ext : new String[] {".jsonl", ".json", ".ndjson"}) {
            if (name.endsWith(ext)) {
                return name.substring(0, name.length() - ext.length());
            }
        }
        return name;
    }
}
