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

package dev.offheap.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LabOptionsTest {
    private static final List<String> KNOWN = List.of("alloc", "io", "order", "store", "gc", "server");

    @Test
    void quickIsTheDefault() throws Exception {
        LabOptions options = LabOptions.parse(List.of(), KNOWN);

        assertThat(options.scale()).isEqualTo(LabContext.Scale.QUICK);
        assertThat(options.only()).isEmpty();
        assertThat(options.out()).isEqualTo(Path.of("lab-report"));
    }

    @Test
    void readsEveryOptionInBothSpellings() throws Exception {
        LabOptions options = LabOptions.parse(List.of("--full", "--only=store,alloc", "--out", "x"), KNOWN);

        assertThat(options.scale()).isEqualTo(LabContext.Scale.FULL);
        assertThat(options.only()).containsExactly("store", "alloc");
        assertThat(options.out()).isEqualTo(Path.of("x"));
        assertThat(LabOptions.parse(List.of("--out=y", "--only", "gc"), KNOWN).out()).isEqualTo(Path.of("y"));
    }

    @Test
    void refusesWhatItCannotRun() {
        assertThatThrownBy(() -> LabOptions.parse(List.of("--only", ","), KNOWN))
                .hasMessageStartingWith("--only needs at least one experiment");
        assertThatThrownBy(() -> LabOptions.parse(List.of("--tiny", "--quick"), KNOWN))
                .hasMessageContaining("not both --tiny and --quick");
    }
}
