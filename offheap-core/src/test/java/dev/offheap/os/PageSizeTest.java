package dev.offheap.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The page size comes from the OS, as {@code getconf PAGESIZE} prints it, not a constant. */
class PageSizeTest {

    @Test
    void thePageSizeIsTheOperatingSystems() throws IOException, InterruptedException {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "getconf and sysconf are asked on Linux");
        Process getconf = new ProcessBuilder("getconf", "PAGESIZE").start();
        String printed = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(getconf.waitFor()).isZero();

        assertThat(NativeMemory.PAGE_SIZE).isEqualTo(Long.parseLong(printed));
        assertThat(Long.bitCount(NativeMemory.PAGE_SIZE)).isEqualTo(1);
        assertThat(NativeMemory.roundToPage(1)).isEqualTo(NativeMemory.PAGE_SIZE);
    }
}
