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

package dev.offheap.suite;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Headless Chromium for the tests that check an HTML report in a real browser (the lab's, a memory record's): the
 * DOM Chromium built from a page, after its parsing and layout.
 */
public final class Chromium {
    private Chromium() {}

    /**
     * {@code chromium --headless --dump-dom} of {@code html}, with a profile of its own beside the page; fails the test
     * when Chromium is not installed (./offheap test installs it) or does not exit with 0.
     */
    public static String dumpDom(Path html) throws IOException, InterruptedException {
        String chromium = onPath("chromium");
        if (chromium == null) {
            throw new AssertionError("chromium is not installed, and this test opens an HTML report in headless Chromium."
                    + " Run the tests with ./offheap test, which installs it (apt-get install chromium).");
        }
        Path profile = Files.createTempDirectory(html.toAbsolutePath().getParent(), "chromium-profile-");
        Path stderr = profile.resolveSibling(profile.getFileName() + ".err");
        List<String> command = List.of(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--dump-dom", html.toUri().toString());
        Process process = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        process.getOutputStream().close();
        Waits.Finished dom = Waits.finish(process, Duration.ofSeconds(60), "chromium --dump-dom");
        if (dom.exitCode() != 0) {
            throw new AssertionError("chromium exited with " + dom.exitCode() + "; its stderr: " + Files.readString(stderr));
        }
        return dom.output();
    }

    private static String onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
