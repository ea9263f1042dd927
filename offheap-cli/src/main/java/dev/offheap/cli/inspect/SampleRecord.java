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
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code --record FILE}: every sample appended as one line of JSON (the {@code --json} document), written and
 * flushed as it is taken, so that a watch stopped or killed leaves whole lines, and a record continued by a later
 * watch is one file.
 */
final class SampleRecord implements AutoCloseable {
    private final Path file;
    private final Writer out;

    private SampleRecord(Path file, Writer out) {
        this.file = file;
        this.out = out;
    }

    static SampleRecord open(Path file) {
        try {
            return new SampleRecord(file, Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new InspectException(InspectException.FAILED, "cannot write the record " + file + ": " + e.getMessage());
        }
    }

    void write(String jsonLine) {
        try {
            out.write(jsonLine);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new InspectException(InspectException.FAILED, "cannot write the record " + file + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new InspectException(InspectException.FAILED, "cannot close the record " + file + ": " + e.getMessage());
        }
    }
}
