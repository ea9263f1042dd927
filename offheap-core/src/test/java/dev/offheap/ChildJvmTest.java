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

package dev.offheap;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM that does not end in time fails its test with its threads at that moment, so that a hang (where
 * it waits) can be told from a machine too busy to finish (threads at work) without running it again.
 */
@Tag("child-jvm")
class ChildJvmTest {

    /** Sleeps far longer than any test waits, in a method the thread dump names (10 s: it has reached main). */
    public static final class Sleeper {
        public static void main(String[] args) throws InterruptedException {
            System.out.println("sleeping");
            System.out.flush();
            sleepForAnHour();
        }

        static void sleepForAnHour() throws InterruptedException {
            Thread.sleep(Duration.ofHours(1));
        }
    }

    @Test
    void aChildThatDoesNotEndInTimeIsReportedWithItsThreads(@TempDir Path dir) {
        assertThatThrownBy(() -> ChildJvm.run(dir, "64m", Duration.ofSeconds(10), Sleeper.class))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Sleeper did not end within PT10S")
                .hasMessageContaining("its threads then:")
                .hasMessageContaining("Sleeper.sleepForAnHour");
    }
}
