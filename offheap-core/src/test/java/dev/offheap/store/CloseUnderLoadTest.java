package dev.offheap.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing a pool or releasing an array while other threads read and write it (element access, fills,
 * copies, kernels, a kept contiguous segment) never crashes the JVM: the users get
 * {@link IllegalStateException}s, the memory goes away afterwards. Run in a child JVM, since a crash would
 * take the test JVM with it.
 */
@Tag("child-jvm")
class CloseUnderLoadTest {
    @TempDir
    Path dir;

    @Test
    void closingUnderConcurrentUseNeverCrashes() throws Exception {
        ChildJvm child = ChildJvm.run(dir, "256m", Duration.ofSeconds(60), CloseUnderLoadChild.class, "50",
                dir.toString());
        assertThat(child.crashReports()).as("no JVM crash").isEmpty();
        assertThat(child.exitCode()).as(child.output()).isZero();
        assertThat(child.output()).contains("OK");
    }
}
