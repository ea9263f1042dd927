package dev.offheap.cli.inspect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Takes {@link Sample}s of one attached target. */
final class Sampler {
    private static final int CHURN_POLLS = 21;
    private static final long CHURN_POLL_MILLIS = 50;

    private final Connection connection;
    private final DiagnosticCommands commands;

    Sampler(Connection connection) throws IOException {
        this.connection = connection;
        this.commands = new DiagnosticCommands(connection.server());
    }

    Sample take() throws IOException {
        long pid = connection.pid();
        BufferPools buffers = BufferPools.read(connection.server(), CHURN_POLLS, CHURN_POLL_MILLIS);
        JvmAreas jvm = JvmAreas.read(connection.server());
        List<OffheapBean> offheap = OffheapBean.readAll(connection.server());
        NativeReports reports = NativeReports.read(commands, jvm.nmtEnabled());
        List<Mapping> mappings = Smaps.parse(readSmaps(pid));
        List<OwnedRange> owned = new ArrayList<>(reports.vmMap().ranges());
        offheap.forEach(bean -> owned.addAll(bean.ranges()));
        ProcessMemory memory = ProcessMemory.of(mappings, new MappingClassifier(reports.heapRanges(),
                reports.codeRanges(), jvm.javaHome()), owned, (start, end) -> Pagemap.residentBytes(pid, start, end));
        Attribution attribution = Attribution.of(memory, jvm, reports, offheap);
        ContainerMemory.Result container = ContainerMemory.read(pid);
        Ceilings ceilings = commands.run("VM.flags", "-all").map(VmFlags::parse)
                .map(flags -> Ceilings.of(flags.settings(), usage(attribution, jvm, buffers, reports, offheap)))
                .orElse(null);
        return new Sample(pid, Instant.now(), memory, jvm, buffers, reports, offheap, attribution, container, ceilings);
    }

    private static Ceilings.Usage usage(Attribution a, JvmAreas jvm, BufferPools buffers, NativeReports reports,
            List<OffheapBean> offheap) {
        long limit = 0;
        boolean roots = false;
        for (OffheapBean bean : offheap) {
            if (bean.type().equals("MemoryBudget") && bean.path() != null && !bean.path().substring(1).contains("/")) {
                roots = true;
                long l = bean.number("LimitBytes");
                limit = l < 0 || limit < 0 ? -1 : limit + l;
            }
        }
        return new Ceilings.Usage(a.part("heap"), buffers.direct().memoryUsed(), jvm.metaspaceCommitted(),
                a.part("codeCache"), jvm.threads(), a.part("threadStacks"), a.part("malloc"),
                a.part("offheap"), roots ? limit : -1);
    }

    private static String readSmaps(long pid) throws IOException {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "smaps"));
        } catch (NoSuchFileException e) {
            throw InspectException.exited(pid);
        }
    }
}
