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

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import picocli.CommandLine;

/** {@code offheap inspect PID OPTIONS...} run in this JVM as the command line runs it. */
final class InspectRun {
    private InspectRun() {}

    /**
     * What one run printed and returned.
     *
     * @param exit its exit code
     * @param out its standard output
     * @param err its standard error
     */
    record Result(int exit, String out, String err) {}

    static Result run(long pid, String... options) {
        String[] args = new String[options.length + 1];
        args[0] = Long.toString(pid);
        System.arraycopy(options, 0, args, 1, options.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new InspectCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    /** {@code --json} and the other options; the run must succeed. */
    static Map<String, Object> json(long pid, String... options) {
        String[] withJson = new String[options.length + 1];
        withJson[0] = "--json";
        System.arraycopy(options, 0, withJson, 1, options.length);
        Result result = run(pid, withJson);
        assertThat(result.exit()).as(result.err()).isZero();
        return MiniJson.object(result.out());
    }
}
