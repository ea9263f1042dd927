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
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Wrong arguments, wrong order of calls and closed pools: exceptions with useful messages, never a crash. */
class BadInputTest {

    enum Mode {
        DEFAULT(() -> BufferPool.builder().name("bad-input").leakSampling(0).build(), 256),
        CHECKED(() -> BufferPool.builder().name("bad-input").leakSampling(0).checked(true).build(), 256),
        TRACKED(() -> BufferPool.builder().name("bad-input").leakSampling(1).build(), 256),
        UNCACHED(() -> BufferPool.builder().name("bad-input").leakSampling(0).threadCaches(0).build(), 256),
        DEDICATED(() -> BufferPool.builder().name("bad-input").leakSampling(0).build(), (1 << 20) + 100);

        final Supplier<BufferPool> pools;
        final int size;

        Mode(Supplier<BufferPool> pools, int size) {
            this.pools = pools;
            this.size = size;
        }
    }

    // ---- sizes ----

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void negativeSizeIsRejected(Mode mode) {
        try (BufferPool pool = mode.pools.get()) {
            for (int size : new int[] {-1, -4096, Integer.MIN_VALUE}) {
                assertThatThrownBy(() -> pool.acquire(size))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining(Integer.toString(size));
            }
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(pool.budget().used()).isZero();
        }
    }

    @Test
    void sizeAboveMaxLeaseSizeIsRejectedNamingThePoolAndTheOption() {
        try (BufferPool pool = BufferPool.builder().name("small-leases").maxLeaseSize(2 << 20).build()) {
            assertThatThrownBy(() -> pool.acquire((2 << 20) + 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("small-leases")
                    .hasMessageContaining("Builder.maxLeaseSize")
                    .hasMessageContaining(Integer.toString((2 << 20) + 1));
            try (BufferLease largest = pool.acquire(2 << 20)) {
                assertThat(largest.size()).isEqualTo(2 << 20);
            }
            assertThat(pool.stats().leases()).isZero();
        }
    }

    @Test
    void defaultMaxLeaseSizeRejectsHugeRequestsWithoutTakingMemory() {
        try (BufferPool pool = BufferPool.builder().name("defaults").build()) {
            assertThatThrownBy(() -> pool.acquire(Integer.MAX_VALUE))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("defaults")
                    .hasMessageContaining("Builder.maxLeaseSize");
            assertThatThrownBy(() -> pool.acquire((1 << 30) + 1)).isInstanceOf(IllegalArgumentException.class);
            assertThat(pool.stats().bytesFromOs()).isZero();
            assertThat(pool.budget().used()).isZero();
        }
    }

    /** maxLeaseSize is "the largest lease at all; larger requests throw", also below largestPooledSize. */
    @Test
    void maxLeaseSizeBelowTheLargestPooledSizeIsAlsoEnforced() {
        try (BufferPool pool = BufferPool.builder().name("tiny-leases").maxLeaseSize(4096).build()) {
            try (BufferLease ok = pool.acquire(4096)) {
                assertThat(ok.size()).isEqualTo(4096);
            }
            assertThatThrownBy(() -> {
                        try (BufferLease tooLarge = pool.acquire(4097)) {
                            tooLarge.size();
                        }
                    })
                    .as("a lease above maxLeaseSize(4096) from a size class")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("tiny-leases")
                    .hasMessageContaining("Builder.maxLeaseSize");
        }
    }

    // ---- releases and use after release ----

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void doubleReleaseThrows(Mode mode) {
        try (BufferPool pool = mode.pools.get()) {
            BufferLease buffer = pool.acquire(mode.size);
            assertThat(buffer.release()).isTrue();
            assertThatThrownBy(buffer::release)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("released");
            assertThatThrownBy(buffer::close).isInstanceOf(IllegalStateException.class);
            assertThat(buffer.refCount()).isZero();
            assertThat(pool.stats().leases()).isZero();
            // the pool is unharmed: two new leases are distinct and both usable
            try (BufferLease a = pool.acquire(mode.size); BufferLease b = pool.acquire(mode.size)) {
                assertThat(a.segment().asOverlappingSlice(b.segment())).isEmpty();
                a.segment().fill((byte) 1);
                b.segment().fill((byte) 2);
                assertThat(a.segment().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void useAfterReleaseThrowsSayingReleased(Mode mode) {
        try (BufferPool pool = mode.pools.get()) {
            BufferLease buffer = pool.acquire(mode.size);
            buffer.release();
            assertThatThrownBy(buffer::segment)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThatThrownBy(buffer::byteBuffer)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThatThrownBy(buffer::retain)
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
            assertThat(buffer.refCount()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void releasingMoreThanRetainedThrows(Mode mode) {
        try (BufferPool pool = mode.pools.get()) {
            BufferLease buffer = pool.acquire(mode.size).retain();
            assertThat(buffer.release()).isFalse();
            assertThat(buffer.release()).isTrue();
            assertThatThrownBy(buffer::release).isInstanceOf(IllegalStateException.class);
            assertThat(pool.stats().leases()).isZero();
        }
    }

    // ---- closed pools ----

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void acquireAndTrimOnAClosedPoolThrowNamingThePool(Mode mode) {
        BufferPool pool = mode.pools.get();
        pool.acquire(mode.size).release();
        pool.close();
        assertThat(pool.isClosed()).isTrue();
        assertThatThrownBy(() -> pool.acquire(mode.size))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bad-input")
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> pool.acquire(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> pool.acquire(5 << 20))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("bad-input");
        assertThatThrownBy(pool::trim)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bad-input");
        assertThat(pool.stats().bytesFromOs()).isZero();
        assertThat(pool.budget().used()).isZero();
    }

    @Test
    void closingTwiceIsFine() {
        BufferPool pool = BufferPool.builder().name("twice").build();
        pool.acquire(100).release();
        pool.close();
        assertThatCode(pool::close).doesNotThrowAnyException();
        assertThat(pool.isClosed()).isTrue();
        assertThat(pool.toString()).contains("twice").contains("closed");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Mode.class)
    void releasingALeaseAfterItsPoolClosedIsHarmless(Mode mode) {
        BufferPool pool = mode.pools.get();
        BufferLease buffer = pool.acquire(mode.size);
        BufferLease retained = pool.acquire(mode.size).retain();
        pool.close();
        assertThat(pool.budget().used()).as("close gave everything back").isZero();
        assertThatCode(() -> {
            assertThat(buffer.release()).isTrue();
            assertThat(retained.release()).isFalse();
            assertThat(retained.release()).isTrue();
        }).doesNotThrowAnyException();
        assertThat(pool.budget().used()).isZero();
        assertThat(pool.stats().bytesFromOs()).isZero();
        assertThatThrownBy(buffer::release).as("still a double release").isInstanceOf(IllegalStateException.class);
    }

    /**
     * A view of a lease still outstanding when its pool closes must throw, never reach memory given back to
     * the OS. Runs in a child JVM, because reaching unmapped memory kills the JVM with SIGSEGV.
     */
    @ParameterizedTest(name = "{0} {1} {2} size {3}, views taken {4} close")
    @CsvSource({
        "default, system,   segment,    256,     early",
        "default, system,   bytebuffer, 256,     early",
        "default, system,   segment,    256,     late",
        "default, system,   bytebuffer, 256,     late",
        "default, portable, segment,    256,     early",
        "default, system,   segment,    2097152, early",
        "default, system,   bytebuffer, 2097152, late",
        "checked, system,   segment,    256,     early",
        "checked, system,   bytebuffer, 256,     early",
        "checked, system,   segment,    256,     late",
        "checked, portable, segment,    256,     early",
        "checked, system,   segment,    2097152, early",
    })
    @Tag("child-jvm")
    void viewsOfALeaseOutstandingAtCloseThrowInsteadOfTouchingFreedMemory(String mode, String source,
            String view, int size, String when, @TempDir Path dir) throws Exception {
        ChildResult child = runChild(dir, mode, source, view, Integer.toString(size), when);
        assertThat(child.exitCode())
                .as("the child JVM exits normally after touching the view (a crash means it touched freed memory); its output:%n%s", child.output())
                .isZero();
        assertThat(child.output())
                .as("the view threw IllegalStateException")
                .contains("THREW java.lang.IllegalStateException")
                .contains("RELEASED");
    }

    // ---- builder ----

    @Test
    void builderRejectsBadOptionsNamingThem() {
        assertOption(() -> BufferPool.builder().threadCaches(-1), "threadCaches");
        assertOption(() -> BufferPool.builder().threadCaches(5000), "threadCaches");
        assertOption(() -> BufferPool.builder().largestPooledSize(10), "largestPooledSize");
        assertOption(() -> BufferPool.builder().largestPooledSize(128 << 20), "largestPooledSize");
        assertOption(() -> BufferPool.builder().leakSampling(-1), "leakSampling");
        assertOption(() -> BufferPool.builder().maxLeaseSize(0), "maxLeaseSize");
        assertOption(() -> BufferPool.builder().maxLeaseSize(-5), "maxLeaseSize");
        assertOption(() -> BufferPool.builder().maxSlabSize(1000), "maxSlabSize");
        assertOption(() -> BufferPool.builder().maxSlabSize(2L << 30), "maxSlabSize");
        assertOption(() -> BufferPool.builder().threadCacheSize(-1, 1024), "threadCacheSize");
        assertOption(() -> BufferPool.builder().threadCacheSize(1024, -1), "threadCacheSize");
        assertOption(() -> BufferPool.builder().name(" "), "name");
        assertThatThrownBy(() -> BufferPool.builder().name(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> BufferPool.builder().budget(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> BufferPool.builder().nativeMemory(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void builderRejectsOptionsThatDisagreeNamingBoth() {
        assertThatThrownBy(() -> BufferPool.builder().largestPooledSize(8 << 20).maxSlabSize(4 << 20).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxSlabSize")
                .hasMessageContaining("largestPooledSize");
    }

    /** A setting that implies another adjusts it: the slab follows largestPooledSize unless set. */
    @Test
    void largestPooledSizeAloneRaisesTheSlabSizeItNeeds() {
        try (BufferPool pool = BufferPool.builder().largestPooledSize(16 << 20).leakSampling(0).build()) {
            try (BufferLease b = pool.acquire(16 << 20)) {
                assertThat(b.size()).isEqualTo(16 << 20);
            }
            assertThat(pool.stats().dedicatedBytes()).as("16 MiB came from a size class").isZero();
        }
        assertThatThrownBy(() -> BufferPool.builder().largestPooledSize(8 << 20).maxSlabSize(4 << 20).build())
                .hasMessageContaining("set maxSlabSize to at least " + (8 << 20))
                .hasMessageContaining("leave it unset");
    }

    @Test
    void builderAcceptsTheBoundsOfEveryRange() {
        try (BufferPool pool = BufferPool.builder().threadCaches(0).largestPooledSize(64).leakSampling(0)
                .maxLeaseSize(1).maxSlabSize(64 * 1024).threadCacheSize(0, 0).build()) {
            try (BufferLease b = pool.acquire(1)) {
                assertThat(b.size()).isEqualTo(1);
            }
        }
        try (BufferPool pool = BufferPool.builder().threadCaches(4096).largestPooledSize(64 << 20)
                .maxSlabSize(64 << 20).leakSampling(Integer.MAX_VALUE).maxLeaseSize(Integer.MAX_VALUE).build()) {
            try (BufferLease b = pool.acquire(100)) {
                assertThat(b.size()).isEqualTo(100);
            }
        }
    }

    private static void assertOption(Runnable setter, String option) {
        assertThatThrownBy(setter::run)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(option);
    }

    record ChildResult(int exitCode, String output) {}

    private static ChildResult runChild(Path dir, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:-CreateCoredumpOnCrash",
                "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log"),
                "-cp", System.getProperty("java.class.path"), CloseWithLeaseChild.class.getName()));
        command.addAll(List.of(args));
        Path log = dir.resolve("child.log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("child JVM did not finish within 60 s: " + Files.readString(log));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        // keep the report short: the first lines of a crash say enough
        String[] lines = output.split("\n");
        if (lines.length > 25) {
            output = String.join("\n", List.of(lines).subList(0, 25)) + "\n...";
        }
        return new ChildResult(process.exitValue(), output);
    }

}
