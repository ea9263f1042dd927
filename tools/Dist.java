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


import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolvedModule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Builds offheap's self-contained image, "one download for any machine" (issue 29), from the CLI's build output
 * ({@code offheap-cli/target/offheap-cli.jar} and every jar in {@code offheap-cli/target/lib}). {@code ./offheap dist}
 * builds the CLI and runs this; run from the repository root with a JDK 25 (whose runtime the image carries):
 *
 * <pre>java tools/Dist.java [--cli DIR] [--out DIR] [--no-archive]</pre>
 *
 * <ol>
 * <li>The JDK modules the application needs: those its modules' descriptors require, transitively (resolved
 *     against this JDK's modules), and those {@code jdeps} finds used by every jar, automatic modules and
 *     multi-release parts included. Nothing is hard-coded: a jar added to target/lib brings its own needs.</li>
 * <li>{@code jlink} of just those into {@code OUT/offheap-VERSION}, with {@code --strip-debug --no-man-pages
 *     --no-header-files --compress=zip-6} and {@code --generate-cds-archive} (the runtime's default class-data
 *     sharing archive, which a linked image otherwise lacks: a slower start).</li>
 * <li>The application's jars in {@code lib/app} (a module path: picocli and async-profiler are automatic modules,
 *     which jlink cannot link), and {@code bin/offheap}, a POSIX sh launcher (offheap-cli/src/dist/bin/offheap)
 *     that runs the image's own java as ./offheap runs the CLI.</li>
 * <li>{@code OUT/offheap-VERSION-linux-ARCH.tar.gz}, unpacking to {@code offheap-VERSION/}: entries in name order,
 *     owner and group 0, every time {@code SOURCE_DATE_EPOCH} (./offheap dist sets it to the last commit's time),
 *     else the CLI jar's.</li>
 * </ol>
 *
 * <p>No class-data sharing archive of the application's own classes (AppCDS, or JDK 25's AOT cache): either made at
 * build time takes about 20 % off a start here, but records the module path, so that once the image is unpacked
 * elsewhere the JVM prints {@code [error][cds]} (or {@code [error][aot]}) lines on standard output, where inspect
 * writes its JSON, and the AOT cache is not used at all. The runtime's own archive, made by jlink, moves with it.
 *
 * <p>VERSION is the CLI jar's Implementation-Version; ARCH is x86_64 or aarch64, this JDK's (jlink links the running
 * JDK's own modules, so the image is for the platform it is built on). OUT defaults to CLI/dist.
 */
public class Dist {
    static final String MAIN_MODULE = "dev.offheap.cli";

    public static void main(String[] args) throws Exception {
        Path cli = Path.of("offheap-cli/target");
        Path out = null;
        boolean archive = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cli" -> cli = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--no-archive" -> archive = false;
                default -> {
                    System.err.println("usage: java tools/Dist.java [--cli DIR] [--out DIR] [--no-archive]");
                    System.exit(2);
                }
            }
        }
        if (Runtime.version().feature() < 25) {
            System.err.println("tools/Dist.java: needs a JDK 25 or newer (the CLI's classes are Java 25), not "
                    + Runtime.version());
            System.exit(2);
        }
        cli = cli.toAbsolutePath().normalize();
        out = out == null ? cli.resolve("dist") : out.toAbsolutePath().normalize();
        Path image = build(cli, out);
        System.out.println("image:   " + image + " (" + mib(sizeOf(image)) + " unpacked)");
        if (archive) {
            Path tarGz = out.resolve(image.getFileName() + "-linux-" + arch() + ".tar.gz");
            archive(image, tarGz, timestamp(cli.resolve("offheap-cli.jar")));
            System.out.println("archive: " + tarGz + " (" + mib(Files.size(tarGz)) + ")");
        }
    }

    /** Builds {@code out/offheap-VERSION} and returns it. */
    static Path build(Path cli, Path out) throws IOException, InterruptedException {
        Path jar = cli.resolve("offheap-cli.jar");
        Path lib = cli.resolve("lib");
        Path launcher = cli.resolveSibling("src/dist/bin/offheap");
        for (Path needed : List.of(jar, lib, launcher)) {
            if (!Files.exists(needed)) {
                throw new IllegalStateException(needed + " is missing: build the CLI first (./offheap build)");
            }
        }
        List<Path> jars = new ArrayList<>(List.of(jar));
        try (Stream<Path> files = Files.list(lib)) {
            files.filter(f -> f.getFileName().toString().endsWith(".jar")).sorted().forEach(jars::add);
        }
        Path image = out.resolve("offheap-" + version(jar));
        deleteTree(image);
        Files.createDirectories(out);

        Set<String> modules = jdkModules(jars);
        System.out.println("modules: " + String.join(",", modules));
        tool("jlink", "--add-modules", String.join(",", modules), "--strip-debug", "--no-man-pages",
                "--no-header-files", "--compress=zip-6", "--generate-cds-archive", "--output", image.toString());

        Path app = Files.createDirectories(image.resolve("lib/app"));
        for (Path j : jars) {
            Files.copy(j, app.resolve(j.getFileName()));
        }
        Path bin = image.resolve("bin/offheap");
        Files.copy(launcher, bin, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        return image;
    }

    /**
     * The JDK modules the jars need: the system modules that resolving every module among them requires, and those
     * jdeps finds used.
     */
    static Set<String> jdkModules(List<Path> jars) {
        ModuleFinder app = ModuleFinder.of(jars.toArray(Path[]::new));
        Set<String> roots = new TreeSet<>();
        for (ModuleReference reference : app.findAll()) {
            roots.add(reference.descriptor().name());
        }
        if (!roots.contains(MAIN_MODULE)) {
            throw new IllegalStateException(jars.get(0) + " is not the module " + MAIN_MODULE);
        }
        Configuration resolved = Configuration.resolve(app, List.of(Configuration.empty()), ModuleFinder.ofSystem(), roots);
        Set<String> modules = new TreeSet<>();
        for (ResolvedModule module : resolved.modules()) {
            if (!roots.contains(module.name())) {
                modules.add(module.name());
            }
        }
        List<String> jdeps = new ArrayList<>(List.of("--multi-release", Integer.toString(Runtime.version().feature()),
                "--ignore-missing-deps", "--print-module-deps", "--module-path", jars.get(0).resolveSibling("lib").toString()));
        jars.forEach(j -> jdeps.add(j.toString()));
        // its answer is the last line; warnings may come before (a split package: a jar both input and on the path)
        List<String> lines = tool("jdeps", jdeps.toArray(String[]::new)).strip().lines().toList();
        String answer = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
        if (!answer.matches("[a-z][\\w.]*(,[a-z][\\w.]*)*")) {
            throw new IllegalStateException("jdeps --print-module-deps printed no module list: " + lines);
        }
        modules.addAll(List.of(answer.split(",")));
        return modules;
    }

    /** Runs a JDK tool of this JDK in this JVM and returns its standard output; fails with its output. */
    static String tool(String name, String... args) {
        ToolProvider tool = ToolProvider.findFirst(name)
                .orElseThrow(() -> new IllegalStateException("this JDK has no " + name + " (a JDK, not a JRE, is needed)"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = tool.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        if (code != 0) {
            throw new IllegalStateException(name + " " + String.join(" ", args) + " failed (" + code + "):\n" + out + err);
        }
        return out.toString();
    }

    static String version(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            String version = file.getManifest() == null ? null
                    : file.getManifest().getMainAttributes().getValue("Implementation-Version");
            if (version == null || version.isBlank()) {
                throw new IllegalStateException(jar + " has no Implementation-Version in its manifest");
            }
            return version.strip();
        }
    }

    static String arch() {
        return switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64" -> "aarch64";
            default -> System.getProperty("os.arch");
        };
    }

    /** Seconds since the epoch for every entry: SOURCE_DATE_EPOCH when set, else {@code file}'s modification time. */
    static long timestamp(Path file) throws IOException {
        String epoch = System.getenv("SOURCE_DATE_EPOCH");
        if (epoch != null && !epoch.isBlank()) {
            return Long.parseLong(epoch.strip());
        }
        return Files.getLastModifiedTime(file).to(TimeUnit.SECONDS);
    }

    // -- the archive: ustar entries (directories, files, symbolic links) in a gzip stream

    /** Writes {@code dir} and everything in it, as {@code NAME/...} with NAME its file name, to {@code tarGz}. */
    static void archive(Path dir, Path tarGz, long mtime) throws IOException {
        Path base = dir.getParent();
        List<Path> entries;
        try (Stream<Path> walk = Files.walk(dir)) {
            entries = walk.sorted(Comparator.comparing(p -> base.relativize(p).toString())).toList();
        }
        Path partial = tarGz.resolveSibling(tarGz.getFileName() + ".partial");
        try (OutputStream tar = new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(partial)), 1 << 16)) {
            for (Path entry : entries) {
                String name = base.relativize(entry).toString();
                if (Files.isSymbolicLink(entry)) {
                    tar.write(header(name, 0755 | 0777, 0, mtime, '2', Files.readSymbolicLink(entry).toString()));
                } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    tar.write(header(name + "/", 0755, 0, mtime, '5', ""));
                } else {
                    boolean executable = Files.getPosixFilePermissions(entry).contains(PosixFilePermission.OWNER_EXECUTE);
                    long size = Files.size(entry);
                    tar.write(header(name, executable ? 0755 : 0644, size, mtime, '0', ""));
                    Files.copy(entry, tar);
                    tar.write(new byte[(int) ((512 - size % 512) % 512)]);
                }
            }
            tar.write(new byte[1024]); // two zero blocks end the archive
        }
        Files.move(partial, tarGz, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** A 512-byte ustar header; a name longer than 100 bytes is split into prefix and name at a slash. */
    static byte[] header(String path, int mode, long size, long mtime, char type, String link) {
        byte[] h = new byte[512];
        String name = path;
        String prefix = "";
        if (name.getBytes(StandardCharsets.UTF_8).length > 100) {
            int slash = path.lastIndexOf('/', path.endsWith("/") ? path.length() - 2 : path.length() - 1);
            while (slash > 0 && (slash > 155 || path.length() - slash - 1 > 100)) {
                slash = path.lastIndexOf('/', slash - 1);
            }
            if (slash <= 0) {
                throw new IllegalArgumentException("a path too long for a ustar archive: " + path);
            }
            prefix = path.substring(0, slash);
            name = path.substring(slash + 1);
        }
        put(h, 0, 100, name);
        octal(h, 100, 8, mode & 07777);
        octal(h, 108, 8, 0); // uid
        octal(h, 116, 8, 0); // gid
        octal(h, 124, 12, size);
        octal(h, 136, 12, mtime);
        h[156] = (byte) type;
        put(h, 157, 100, link);
        put(h, 257, 6, "ustar");
        put(h, 263, 2, "00");
        put(h, 265, 32, "root");
        put(h, 297, 32, "root");
        put(h, 345, 155, prefix);
        for (int i = 148; i < 156; i++) {
            h[i] = ' ';
        }
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        return h;
    }

    private static void put(byte[] h, int at, int length, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > length) {
            throw new IllegalArgumentException("too long for a ustar field of " + length + ": " + value);
        }
        System.arraycopy(bytes, 0, h, at, bytes.length);
    }

    /** {@code value} in octal, zero-padded, ended by a NUL, in {@code length} bytes. */
    private static void octal(byte[] h, int at, int length, long value) {
        String digits = Long.toOctalString(value);
        if (digits.length() > length - 1) {
            throw new IllegalArgumentException("too large for a ustar field of " + length + ": " + value);
        }
        put(h, at, length, "0".repeat(length - 1 - digits.length()) + digits);
    }

    // -- files

    static long sizeOf(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    return 0;
                }
            }).sum();
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    static String mib(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
