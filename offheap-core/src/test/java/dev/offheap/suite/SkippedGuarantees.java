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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says which guarantees a test run did not check: every test or container skipped ({@code @Disabled}) or
 * aborted (an assumption that did not hold, such as "needs 8 GiB of free disk"), with its reason, printed at
 * the end of each module's run. A skip is never silent. Registered for every module that has offheap-core's
 * test jar, through {@code META-INF/services}.
 */
public final class SkippedGuarantees implements TestExecutionListener {
    private final List<String> skipped = new ArrayList<>();
    private TestPlan plan;

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        skipped.add(describe(test) + ": skipped: " + reason);
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            String reason = result.getThrowable().map(Throwable::getMessage).orElse("no reason given");
            skipped.add(describe(test) + ": not run: " + reason);
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        Path module = Path.of("").toAbsolutePath().getFileName();
        report(module == null ? "this module" : module.toString(), skipped).forEach(System.out::println);
        skipped.clear();
    }

    /** The lines printed for these skipped tests: a heading with their number, then one line each. */
    static List<String> report(String module, List<String> skipped) {
        List<String> lines = new ArrayList<>();
        if (skipped.isEmpty()) {
            lines.add("Skipped guarantees in " + module + ": none, every test ran.");
            return lines;
        }
        lines.add("Skipped guarantees in " + module + ": " + skipped.size() + " test"
                + (skipped.size() == 1 ? "" : "s") + " did not run here, so what they check was not checked:");
        skipped.forEach(s -> lines.add("  - " + s));
        return lines;
    }

    /** The test's class and display name: {@code ChunkPoolTest > spilledArraysBeyondTwoGigabytes > portable=true}. */
    private String describe(TestIdentifier test) {
        List<String> names = new ArrayList<>();
        for (Optional<TestIdentifier> t = Optional.of(test); t.isPresent() && t.get().getParentId().isPresent();
                t = plan == null ? Optional.empty() : plan.getParent(t.get())) {
            names.addFirst(t.get().getDisplayName());
        }
        return String.join(" > ", names);
    }
}
