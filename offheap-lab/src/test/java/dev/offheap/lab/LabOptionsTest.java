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
