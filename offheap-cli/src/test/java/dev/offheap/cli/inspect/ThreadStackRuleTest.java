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

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Without labels, thread stacks are found by the guard pages below them. NMT's detail report of the same JVM
 * ({@link Fixtures}) tells which mappings really are the JVM's thread stacks: the rule must find exactly those,
 * and the primordial thread's {@code [stack]}, which NMT does not track (the launcher's first thread, waiting for
 * the thread that runs {@code main}, never joins the VM).
 */
class ThreadStackRuleTest {
    private static final long KIB = 1024;

    /**
     * On JDK 17 G1 maps the CDS archive's heap regions at the top of the heap: the block offset table and the card
     * table then have one committed page for them, above a hole of 44 KiB (22 MiB of uncommitted heap / 512). Such a
     * page sits on an inaccessible mapping of less than 64 KiB as a stack does, but no thread can have a stack of
     * one page: glibc refuses stacks below {@code PTHREAD_STACK_MIN}, 16 KiB.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"jdk17, 28, 1620, 32", "jdk25, 27, 1664, 32"})
    void theGuardPageRuleFindsTheStacksNmtKnowsAndThePrimordialStack(String jdk, int stacks, long stackKib, long primordialKib) {
        List<Mapping> mappings = Smaps.parse(Fixtures.read(jdk + "-smaps.txt"));
        MappingClassifier unlabelled = new MappingClassifier(AddressRange.span(Fixtures.read(jdk + "-gc-heap-info.txt")),
                AddressRange.findAll(Fixtures.read(jdk + "-compiler-codecache.txt")), null);
        VmMap nmt = NmtDetail.parse(Fixtures.read(jdk + "-nmt-detail.txt")).vmMap();

        List<Mapping> byRule = new ArrayList<>();
        List<Mapping> byNmt = new ArrayList<>();
        Mapping primordial = null;
        for (int i = 0; i < mappings.size(); i++) {
            Mapping m = mappings.get(i);
            if (unlabelled.kind(mappings, i) == MappingKind.THREAD_STACK) {
                byRule.add(m);
            }
            if ("STACK".equals(nmt.label(m)) && !m.isInaccessible()) {
                byNmt.add(m);
            }
            if (m.path().equals("[stack]")) {
                primordial = m;
            }
        }

        assertThat(byNmt).hasSize(stacks);
        assertThat(byNmt.stream().mapToLong(Mapping::rss).sum()).isEqualTo(stackKib * KIB);
        assertThat(primordial).isNotNull();
        assertThat(primordial.rss()).isEqualTo(primordialKib * KIB);
        List<Mapping> expected = new ArrayList<>(byNmt);
        expected.add(primordial);
        assertThat(byRule).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aStackHasAtLeast16KiBAboveItsGuard() {
        long guard = 0x7f0000000000L;
        long stack = guard + 4 * KIB;
        MappingClassifier classifier = new MappingClassifier(List.of(), List.of(), null);

        assertThat(kind(classifier, guard, stack, stack + 16 * KIB)).isEqualTo(MappingKind.THREAD_STACK);
        assertThat(kind(classifier, guard, stack, stack + 12 * KIB)).isEqualTo(MappingKind.ANONYMOUS);
        assertThat(kind(classifier, guard, stack, stack + 4 * KIB)).isEqualTo(MappingKind.ANONYMOUS);
    }

    private static MappingKind kind(MappingClassifier classifier, long guard, long stack, long end) {
        List<Mapping> mappings = List.of(new Mapping(guard, stack, "---p", "", 0, 0, 0), new Mapping(stack, end, "rw-p", "", 0, 0, 0));
        return classifier.kind(mappings, 1);
    }
}
