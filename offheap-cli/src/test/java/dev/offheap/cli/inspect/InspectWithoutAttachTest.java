package dev.offheap.cli.inspect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A JVM started with -XX:+DisableAttachMechanism: inspect refuses to attach and names --no-attach, which then
 * shows what /proc alone tells (the Inflater leak's malloc, stacks, files) and leaves the JVM's regions unexplained.
 */
@Tag("child-jvm")
class InspectWithoutAttachTest {

    @Test
    void aJvmThatRefusesAttachIsStillExplainedFromProc() throws Exception {
        assumeThat(System.getProperty("os.name")).startsWith("Linux");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path program = Path.of("src/test/resources/inspect/InflaterLeak.java").toAbsolutePath();
        Process target = new ProcessBuilder(java, "-Xmx256m", "-XX:+DisableAttachMechanism", program.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
            assertThat(lines.readLine()).isEqualTo("READY");
            StringWriter refusedErr = new StringWriter();
            int refused = run(target.pid(), new StringWriter(), refusedErr, "--json");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = run(target.pid(), out, err, "--json", "--no-attach");

            assertThat(refused).isEqualTo(InspectException.ATTACH_FAILED);
            assertThat(refusedErr.toString()).contains("DisableAttachMechanism", "--no-attach shows what /proc alone tells");
            assertThat(exit).as(err.toString()).isZero();
            Map<String, Object> json = MiniJson.object(out.toString());
            List<String> parts = ((List<?>) json.get("attribution")).stream().map(p -> (String) ((Map<?, ?>) p).get("part")).toList();
            assertThat(parts).containsExactly("programFiles", "mapped", "sharedMemory", "threadStacks", "malloc");
            assertThat(MiniJson.number(json, "malloc")).isGreaterThan(0.25 * MiniJson.number(json, "rss"));
            assertThat(json.get("vm")).isEqualTo("not attached (--no-attach)");
            assertThat(json.get("direct")).isNull();
        } finally {
            target.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void noAttachAndJmxExcludeEachOther() {
        StringWriter err = new StringWriter();
        int exit = run(ProcessHandle.current().pid(), new StringWriter(), err, "--no-attach", "--jmx");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("--no-attach and --jmx exclude each other");
    }

    private static int run(long pid, StringWriter out, StringWriter err, String... options) {
        String[] args = new String[options.length + 1];
        args[0] = Long.toString(pid);
        System.arraycopy(options, 0, args, 1, options.length);
        return new CommandLine(new InspectCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    }
}
