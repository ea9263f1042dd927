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

import dev.offheap.lab.LabContext.Scale;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The command line of {@code offheap lab}. */
public record LabOptions(Scale scale, List<String> only, Path out, boolean help) {

    public static final String USAGE = """
            Usage: offheap lab [--quick | --full] [--only NAME,...] [--out DIR]
            Re-runs the classic buffer experiments on this machine and writes a report.
              --quick          short runs, the whole lab in about 3 minutes (the default)
              --full           proper JMH iterations and forks, larger sizes (much longer)
              --only NAME,...  run only these experiments: %s
              --out DIR        where report.html and results.json go (default: lab-report)
              --tiny           seconds per experiment, figures meaningless (for tests)
              -h, --help       this text""";

    /** A command line the lab cannot run: the message says why. */
    public static final class BadOption extends Exception {
        BadOption(String message) {
            super(message);
        }
    }

    /** Parses {@code args}; {@code known} are the experiment names {@code --only} accepts. */
    public static LabOptions parse(List<String> args, List<String> known) throws BadOption {
        Scale scale = null;
        Set<String> only = new LinkedHashSet<>();
        Path out = Path.of("lab-report");
        boolean help = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "--quick", "--full", "--tiny" -> {
                    Scale s = Scale.valueOf(arg.substring(2).toUpperCase(java.util.Locale.ROOT));
                    if (scale != null && scale != s) {
                        throw new BadOption("choose one of --quick, --full and --tiny, not both "
                                + "--" + scale.name().toLowerCase(java.util.Locale.ROOT) + " and " + arg);
                    }
                    scale = s;
                }
                case "--only" -> {
                    if (value == null) {
                        if (i + 1 >= args.size()) {
                            throw new BadOption("--only needs a list of experiments, e.g. --only alloc,store; known: "
                                    + String.join(", ", known));
                        }
                        value = args.get(++i);
                    }
                    for (String name : value.split(",")) {
                        String n = name.trim();
                        if (n.isEmpty()) {
                            continue;
                        }
                        if (!known.contains(n)) {
                            throw new BadOption("unknown experiment '" + n + "' in --only; known: "
                                    + String.join(", ", known));
                        }
                        only.add(n);
                    }
                    if (only.isEmpty()) {
                        throw new BadOption("--only needs at least one experiment; known: " + String.join(", ", known));
                    }
                }
                case "--out" -> {
                    if (value == null) {
                        if (i + 1 >= args.size() || args.get(i + 1).startsWith("-")) {
                            throw new BadOption("--out needs a directory, e.g. --out lab-report");
                        }
                        value = args.get(++i);
                    }
                    out = Path.of(value);
                }
                case "-h", "--help" -> help = true;
                default -> throw new BadOption(arg.startsWith("-") ? "unknown option '" + arg + "'"
                        : "unexpected argument '" + arg + "' (experiments are chosen with --only NAME,...)");
            }
        }
        return new LabOptions(scale == null ? Scale.QUICK : scale, new ArrayList<>(only), out, help);
    }

    /** The options as a command line, for the report. */
    public String describe() {
        return "--" + scale.name().toLowerCase(java.util.Locale.ROOT)
                + (only.isEmpty() ? "" : " --only " + String.join(",", only)) + " --out " + out;
    }
}
