package dev.offheap.lab.experiment;

import dev.offheap.lab.LabContext;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Lab contexts for tests and for {@link QuickRun}: this JVM's java and class path. */
final class Contexts {
    private Contexts() {}

    static LabContext of(LabContext.Scale scale, Path workDir) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        return new LabContext(scale, workDir, (what, fraction) -> {}, java, classPath);
    }
}
