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

package dev.offheap.store;

import static org.assertj.core.api.Assertions.fail;

import dev.offheap.suite.Waits;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/** The machine's python3 with NumPy, as the tests that hand files to NumPy run it. */
final class Python {
    static final String PATH = "/usr/bin/python3";

    /** How a command ended: its exit code (-1 if it could not start) and its output, stderr included. */
    record Result(int exitCode, String output) {}

    private Python() {
    }

    /** Runs {@code command}, failing the test if it runs longer than {@code limit}. */
    static Result run(List<String> command, Duration limit) throws IOException, InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        }
        Waits.Finished finished = Waits.finish(process, limit, String.join(" ", command));
        return new Result(finished.exitCode(), finished.output());
    }

    /** Fails, saying how to install it, unless NumPy imports: {@code what} cannot be checked without it. */
    static void requireNumpy(String what) throws IOException, InterruptedException {
        Result result = run(List.of(PATH, "-c", "import numpy; print(numpy.__version__)"), Duration.ofSeconds(60));
        if (result.exitCode() != 0) {
            fail("NumPy for " + PATH + " is missing, so " + what + " cannot be checked. Run ./offheap test, which"
                    + " installs it (the Debian package python3-numpy), or install it with apt-get install"
                    + " python3-numpy. " + PATH + " said: " + result.output());
        }
    }
}
