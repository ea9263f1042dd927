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

package dev.offheap.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.offheap.ChildJvm;
import dev.offheap.os.AddressRange;
import dev.offheap.os.MovableMemory;
import dev.offheap.os.NativeFile;
import dev.offheap.os.NativeMemory;
import dev.offheap.os.OwnedMappings;
import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The raw OS access of {@code dev.offheap.os} is not exported, and on the class path, where every public
 * class is reachable, its entry points refuse callers other than offheap's pools: a raw {@code munmap} of
 * someone else's memory is a {@code SecurityException}, never a crash.
 */
class OsIsInternalTest {
    @TempDir
    Path dir;

    @Test
    void everyEntryPointThatHandsOutOrFreesRawMemoryRefusesACallerOutsideThePools() {
        assertRefused(() -> MovableMemory.free(4096, 4096), "MovableMemory.free");
        assertRefused(() -> MovableMemory.discard(4096, 4096), "MovableMemory.discard");
        assertRefused(() -> MovableMemory.allocate(4096, OwnedMappings.Owner.named("x")), "MovableMemory.allocate");
        assertRefused(() -> MovableMemory.moveInto(4096, 4096, null, 0), "MovableMemory.moveInto");
        assertRefused(() -> AddressRange.reserve(4096, OwnedMappings.Owner.named("x")), "AddressRange.reserve");
        assertRefused(() -> NativeFile.spill(dir, "x"), "NativeFile.spill");
        assertRefused(() -> NativeMemory.system(), "NativeMemory.system");
        assertRefused(() -> NativeMemory.portable(), "NativeMemory.portable");
    }

    @Test
    void onTheClassPathARawFreeOfLiveMemoryIsRefusedAndTheMemoryStaysIntact() throws Exception {
        ChildJvm child = ChildJvm.run(dir, "64m", Duration.ofSeconds(60), RawFreeChild.class);
        assertThat(child.crashReports()).isEmpty();
        assertThat(child.output()).contains("refused: MovableMemory.free is internal to offheap").contains("intact: 42");
        assertThat(child.exitCode()).isZero();
    }

    /** A user's program on the class path trying to unmap memory it does not own. */
    public static final class RawFreeChild {
        public static void main(String[] args) {
            try (Arena arena = Arena.ofConfined()) {
                var segment = arena.allocate(1 << 20, 4096);
                segment.set(java.lang.foreign.ValueLayout.JAVA_INT, 0, 42);
                try {
                    MovableMemory.free(segment.address(), 1 << 20);
                    System.out.println("freed");
                } catch (SecurityException e) {
                    System.out.println("refused: " + e.getMessage());
                }
                System.out.println("intact: " + segment.get(java.lang.foreign.ValueLayout.JAVA_INT, 0));
            }
        }
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String entry) {
        assertThatThrownBy(call).isInstanceOf(SecurityException.class)
                .hasMessageStartingWith(entry + " is internal to offheap")
                .hasMessageContaining("called from " + OsIsInternalTest.class.getName());
    }
}
