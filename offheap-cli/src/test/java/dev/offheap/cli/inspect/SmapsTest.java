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

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /proc/PID/smaps} text (as Linux 6 prints it) read into mappings: addresses, paths, resident kilobytes. */
class SmapsTest {
    private static final String SMAPS = """
            55776617c000-55776617e000 r--p 00000000 fe:00 260386                     /usr/bin/java
            Size:                  8 kB
            KernelPageSize:        4 kB
            MMUPageSize:           4 kB
            Rss:                   8 kB
            Pss:                   2 kB
            Pss_Dirty:             0 kB
            Shared_Clean:          8 kB
            Shared_Dirty:          0 kB
            Private_Clean:         0 kB
            Private_Dirty:         0 kB
            Referenced:            8 kB
            Anonymous:             0 kB
            KSM:                   0 kB
            LazyFree:              0 kB
            AnonHugePages:      2048 kB
            ShmemPmdMapped:        0 kB
            FilePmdMapped:         0 kB
            Shared_Hugetlb:     4096 kB
            Private_Hugetlb:       0 kB
            Swap:                  0 kB
            SwapPss:               0 kB
            Locked:                0 kB
            THPeligible:           0
            VmFlags: rd mr mw me\s
            7f0000000000-7f0000200000 rw-p 00000000 00:00 0                          \s
            Size:               2048 kB
            Rss:                1536 kB
            Pss:                1536 kB
            Shared_Clean:          0 kB
            Shared_Dirty:          0 kB
            Private_Dirty:      1536 kB
            Anonymous:          1536 kB
            VmFlags: rd wr mr mw me ac

            7f1000000000-7f1000100000 rw-s 00000000 00:01 4242                       /memfd:ring buffer (deleted)
            Rss:                 512 kB
            Shared_Clean:        100 kB
            Shared_Dirty:        412 kB
            Anonymous:             0 kB
            ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
            Rss:                   0 kB
            """;

    @Test
    void readsEveryMappingWithItsAddressesPermissionsPathAndResidentBytes() {
        assertThat(Smaps.parse(SMAPS)).containsExactly(
                new Mapping(0x55776617c000L, 0x55776617e000L, "r--p", "/usr/bin/java", 8 * 1024, 0, 8 * 1024),
                new Mapping(0x7f0000000000L, 0x7f0000200000L, "rw-p", "", 1536 * 1024, 1536 * 1024, 0),
                new Mapping(0x7f1000000000L, 0x7f1000100000L, "rw-s", "/memfd:ring buffer (deleted)", 512 * 1024, 0,
                        (100 + 412) * 1024),
                new Mapping(0xffffffffff600000L, 0xffffffffff601000L, "--xp", "[vsyscall]", 0, 0, 0));
    }

    @Test
    void aFieldWithoutUnitIsKilobytesToo() {
        List<Mapping> mappings = Smaps.parse("""
                7f0000000000-7f0000002000 rw-p 00000000 00:00 0
                Rss:    8
                Anonymous:    4
                """);

        assertThat(mappings).containsExactly(new Mapping(0x7f0000000000L, 0x7f0000002000L, "rw-p", "", 8192, 4096, 0));
    }

    @Test
    void linesBeforeTheFirstHeaderAndLinesWithoutAColonAreIgnored() {
        List<Mapping> mappings = Smaps.parse("""
                Rss:                 999 kB
                garbage without a colon

                7f0000000000-7f0000001000 r--p 00000000 00:00 0  [anon:metadata]
                Rss:                   4 kB
                no colon here either
                Anonymous:             4 kB
                """);

        assertThat(mappings).containsExactly(
                new Mapping(0x7f0000000000L, 0x7f0000001000L, "r--p", "[anon:metadata]", 4096, 4096, 0));
    }

    @Test
    void aHeaderWithoutFieldsIsAMappingWithNothingResident() {
        assertThat(Smaps.parse("7f0000000000-7f0000001000 ---p 00000000 00:00 0\n")).containsExactly(
                new Mapping(0x7f0000000000L, 0x7f0000001000L, "---p", "", 0, 0, 0));
    }

    @Test
    void noTextIsNoMapping() {
        assertThat(Smaps.parse("")).isEmpty();
        assertThat(Smaps.parse("\n\n")).isEmpty();
    }

    @Test
    void aMappingKnowsItsSizeAndWhatItsPermissionsAndPathSay() {
        Mapping guard = new Mapping(0x1000, 0x5000, "---p", "", 0, 0, 0);
        Mapping named = new Mapping(0x1000, 0x2000, "rw-p", "[anon:glibc]", 0, 0, 0);
        Mapping file = new Mapping(0x1000, 0x2000, "r--s", "/data/x", 0, 0, 0);

        assertThat(guard.size()).isEqualTo(0x4000);
        assertThat(List.of(guard.isAnonymous(), guard.isInaccessible(), guard.isSharedMapping()))
                .containsExactly(true, true, false);
        assertThat(List.of(named.isAnonymous(), named.isInaccessible(), named.isSharedMapping()))
                .containsExactly(true, false, false);
        assertThat(List.of(file.isAnonymous(), file.isInaccessible(), file.isSharedMapping()))
                .containsExactly(false, false, true);
    }
}
