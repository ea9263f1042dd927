package dev.offheap.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.offheap.lab.ExperimentResult;
import dev.offheap.lab.Outcome;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An experiment's report reaches the console when it is printed, not when the stream's buffer fills up. */
class ConsoleReportFlushTest {
    @Test
    void printFlushesABufferedStream() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream buffered = new PrintStream(new BufferedOutputStream(console, 1 << 16), false,
                StandardCharsets.UTF_8);
        ExperimentResult r = new ExperimentResult("io", "t", List.of(), List.of(), List.of(), List.of(), Map.of());

        ConsoleReport.print(new Outcome(r, Outcome.Status.OK, 1), buffered);

        assertThat(console.toString(StandardCharsets.UTF_8)).startsWith("io: ok in 1.0 s");
    }
}
