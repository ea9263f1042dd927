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

package dev.offheap.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The sites of a sampled lease in an exception message: eight frames each, then how many more there were. */
class CallSiteTest {

    @Test
    void eightFramesAreShownWholeWithNoMoreLine() {
        Throwable acquired = site("acquired by thread 'a'", 8);
        StringBuilder expected = new StringBuilder("\n  acquired by thread 'a' at");
        for (int i = 0; i < 8; i++) {
            expected.append("\n    app.Frame.f").append(i).append("(Frame.java:").append(i + 1).append(')');
        }
        assertThat(CallSite.describe(acquired, null)).isEqualTo(expected.toString());
    }

    @Test
    void framesPastTheEighthAreCounted() {
        Throwable acquired = site("acquired by thread 'a'", 9);
        Throwable released = site("released by thread 'b'", 20);
        String text = CallSite.describe(acquired, released);
        assertThat(text).startsWith("\n  acquired by thread 'a' at\n    app.Frame.f0(Frame.java:1)\n")
                .contains("    app.Frame.f7(Frame.java:8)\n    ... 1 more\n  released by thread 'b' at\n")
                .doesNotContain("f8(")
                .endsWith("    app.Frame.f7(Frame.java:8)\n    ... 12 more");
    }

    @Test
    void noSiteNoText() {
        assertThat(CallSite.describe(null, null)).isEmpty();
    }

    private static Throwable site(String message, int frames) {
        Throwable site = new Throwable(message);
        StackTraceElement[] stack = new StackTraceElement[frames];
        for (int i = 0; i < frames; i++) {
            stack[i] = new StackTraceElement("app.Frame", "f" + i, "Frame.java", i + 1);
        }
        site.setStackTrace(stack);
        return site;
    }
}
