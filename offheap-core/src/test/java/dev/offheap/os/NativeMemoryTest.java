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

package dev.offheap.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.suite.Waits;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class NativeMemoryTest {
    private static final long PAGE = 4096;

    static Stream<Named<NativeMemory>> sources() {
        return Stream.of(Named.of("system (" + NativeMemory.system().name() + ")", NativeMemory.system()),
                Named.of("portable", NativeMemory.portable()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void allocatesZeroedPageAlignedWritableMemory(NativeMemory memory) {
        for (long size : new long[] {1, 100, PAGE - 1, PAGE, PAGE + 1, 10_000, 64 * 1024, 4 << 20}) {
            try (NativeRegion region = memory.allocate(size)) {
                MemorySegment segment = region.segment();
                assertThat(region.byteSize()).isEqualTo(size);
                assertThat(segment.byteSize()).isEqualTo(size);
                assertThat(segment.address() % PAGE).as("page aligned").isZero();
                assertThat(segment.isNative()).isTrue();
                assertThat(segment.isReadOnly()).isFalse();
                long words = size / 8;
                for (long i = 0; i < words; i++) {
                    if (segment.get(ValueLayout.JAVA_LONG, i * 8) != 0) {
                        throw new AssertionError(memory.name() + ": byte " + i * 8 + " of a new region is not zero");
                    }
                }
                for (long i = words * 8; i < size; i++) {
                    assertThat(segment.get(ValueLayout.JAVA_BYTE, i)).isZero();
                }
                segment.fill((byte) 0x7F);
                assertThat(segment.get(ValueLayout.JAVA_BYTE, size - 1)).isEqualTo((byte) 0x7F);
                assertThat(segment.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x7F);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void afterCloseTheSegmentThrows(NativeMemory memory) {
        NativeRegion region = memory.allocate(PAGE);
        MemorySegment segment = region.segment();
        segment.set(ValueLayout.JAVA_INT, 0, 42);
        region.close();
        assertThat(segment.scope().isAlive()).isFalse();
        assertThatThrownBy(() -> segment.get(ValueLayout.JAVA_INT, 0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> segment.set(ValueLayout.JAVA_INT, 0, 1)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> segment.asByteBuffer().get(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(region::close).as("a second close").isInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void zeroAndNegativeSizesAreRejected(NativeMemory memory) {
        assertThatThrownBy(() -> memory.allocate(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.allocate(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> memory.allocate(Long.MIN_VALUE)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void regionsAreDistinct(NativeMemory memory) {
        try (NativeRegion a = memory.allocate(PAGE); NativeRegion b = memory.allocate(PAGE)) {
            assertThat(a.segment().asOverlappingSlice(b.segment())).isEmpty();
            a.segment().fill((byte) 1);
            b.segment().fill((byte) 2);
            assertThat(a.segment().get(ValueLayout.JAVA_BYTE, PAGE - 1)).isEqualTo((byte) 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void aRegionCanBeClosedByAnotherThread(NativeMemory memory) throws Exception {
        NativeRegion region = memory.allocate(PAGE);
        region.segment().fill((byte) 3);
        Thread closer = Thread.ofPlatform().start(region::close);
        Waits.join(closer);
        assertThatThrownBy(() -> region.segment().get(ValueLayout.JAVA_BYTE, 0))
                .isInstanceOf(IllegalStateException.class);
    }

    /**
     * JDK-8364167: a thread the close's handshake met at a poll that cannot throw may still make its access after
     * close returned. So a closed region's pages go back at once (no longer resident, no longer charged), but its
     * addresses stay mapped, reading zeros, until the next handshake: a straggling access never faults on
     * unmapped memory or reaches memory mapped there by someone else.
     */
    @Test
    @SuppressWarnings("restricted")
    void aClosedMmapRegionsPagesGoAtOnceAndItsAddressesAfterTheNextHandshake() throws Exception {
        NativeMemory memory = NativeMemory.system();
        org.junit.jupiter.api.Assumptions.assumeTrue(memory.name().equals("mmap"), "mmap memory (Linux)");
        NativeRegion region = memory.allocate(16 * PAGE);
        region.segment().fill((byte) 9);
        long start = region.segment().address();
        MemorySegment raw = MemorySegment.ofAddress(start).reinterpret(16 * PAGE); // what a straggler still reaches

        assertThat(region.tryClose()).isTrue();

        assertThat(mapped(start, 16 * PAGE)).as("the addresses, until the next handshake").isTrue();
        assertThat(raw.get(ValueLayout.JAVA_BYTE, 5 * PAGE)).as("the pages went back: zeros").isZero();
        Grace.await();
        assertThat(mapped(start, 16 * PAGE)).as("unmapped after the handshake").isFalse();
    }

    @Test
    void aRegionWhoseViewAnIoHoldsIsNotClosedAndClosesOnceTheIoEnded() throws Exception {
        for (NativeMemory memory : new NativeMemory[] {NativeMemory.system(), NativeMemory.portable()}) {
            NativeRegion region = memory.allocate(256 * 1024);
            try (dev.offheap.suite.HeldByIo write = dev.offheap.suite.HeldByIo.writing(region.segment().asByteBuffer())) {
                assertThat(region.tryClose()).as(memory.name() + ": held").isFalse();
                assertThat(region.segment().scope().isAlive()).isTrue();
                write.end();
            }
            assertThat(region.tryClose()).isTrue();
            assertThat(region.segment().scope().isAlive()).isFalse();
        }
    }

    /** Whether {@code /proc/self/maps} has exactly this mapping (a new one elsewhere may start at the same place). */
    private static boolean mapped(long start, long length) throws java.io.IOException {
        String prefix = Long.toHexString(start) + "-" + Long.toHexString(start + length) + " ";
        try (Stream<String> lines = java.nio.file.Files.lines(java.nio.file.Path.of("/proc/self/maps"))) {
            return lines.anyMatch(line -> line.startsWith(prefix));
        }
    }

    @Test
    void names() {
        assertThat(NativeMemory.portable().name()).isEqualTo("arena");
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64") || arch.equals("aarch64"))) {
            assertThat(NativeMemory.system().name()).isEqualTo("mmap");
        } else {
            assertThat(NativeMemory.system().name()).isIn("mmap", "arena");
        }
    }

    @Test
    void theSystemSourceIsAlwaysTheSameInstance() {
        assertThat(NativeMemory.system()).isSameAs(NativeMemory.system());
        assertThat(NativeMemory.portable()).isSameAs(NativeMemory.portable());
    }
}
