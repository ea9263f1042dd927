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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks what Maven Central needs from a release, signatures aside, after {@code ./mvnw -B -P release verify}
 * (./offheap release and ./offheap test run both). Run from the repository root:
 *
 * <pre>java tools/ReleaseCheck.java [--no-headers] [--root DIR]</pre>
 *
 * <ul>
 * <li>the version is a release (no -SNAPSHOT), the group dev.offheap, and the root pom lists no module this check
 *     does not know as published or not (a new module needs a decision here);</li>
 * <li>the published poms (offheap-parent, offheap-bom, and the four libraries through their parent) have name,
 *     description, url, licenses, developers and scm; each library has a description of its own;</li>
 * <li>each library has its jar, -sources.jar (with every .java of src/main/java) and -javadoc.jar (with
 *     index.html), none empty, and, unless --no-headers, the Apache licence header on every src/main .java
 *     (tools/license-headers.sh adds it);</li>
 * <li>offheap-bom manages exactly the four libraries, at the release's version;</li>
 * <li>offheap-cli, offheap-lab and offheap-bench skip deploy, sources and Javadoc, and have no such jars.</li>
 * </ul>
 *
 * Prints one line per check and exits with 1 if any failed.
 */
public class ReleaseCheck {
    static final String GROUP = "dev.offheap";
    static final List<String> PUBLISHED = List.of("offheap-core", "offheap-recorder", "offheap-micrometer", "offheap-netty",
            "offheap-jetty");
    static final List<String> UNPUBLISHED = List.of("offheap-cli", "offheap-lab", "offheap-bench");
    static final String BOM = "offheap-bom";
    static final String HEADER = "Licensed under the Apache License, Version 2.0";
    static final Pattern DECLARATION = Pattern.compile("^\\s*(package|import|module|open module)\\s");

    final Path root;
    final boolean headers;
    final List<String> failures = new ArrayList<>();
    int checks;

    ReleaseCheck(Path root, boolean headers) {
        this.root = root;
        this.headers = headers;
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(".");
        boolean headers = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--no-headers" -> headers = false;
                case "--root" -> root = Path.of(args[++i]);
                default -> {
                    System.err.println("usage: java tools/ReleaseCheck.java [--no-headers] [--root DIR]");
                    System.exit(2);
                }
            }
        }
        ReleaseCheck check = new ReleaseCheck(root.toAbsolutePath().normalize(), headers);
        check.run();
        if (!headers) {
            System.out.println("skipped: licence headers (--no-headers)");
        }
        if (check.failures.isEmpty()) {
            System.out.printf("release check: all %d checks passed%n", check.checks);
        } else {
            System.out.printf("release check: %d of %d checks FAILED:%n", check.failures.size(), check.checks);
            check.failures.forEach(f -> System.out.println("  " + f));
            System.exit(1);
        }
    }

    void check(boolean ok, String what) {
        checks++;
        System.out.println((ok ? "ok    " : "FAIL  ") + what);
        if (!ok) {
            failures.add(what);
        }
    }

    void run() throws Exception {
        check(nonEmpty(root.resolve("LICENSE")) && nonEmpty(root.resolve("NOTICE")), "LICENSE and NOTICE at the root");

        Element parent = pom(root.resolve("pom.xml"));
        String version = text(parent, "version");
        check(GROUP.equals(text(parent, "groupId")), "offheap-parent: groupId " + GROUP);
        check(!version.isEmpty() && !version.endsWith("-SNAPSHOT"), "version " + version + " is a release, not a SNAPSHOT");
        metadata("offheap-parent", parent, null);
        check("false".equals(parent.getAttribute("child.project.url.inherit.append.path"))
                        && "false".equals(child(parent, "scm").map(s -> s.getAttribute("child.scm.url.inherit.append.path")).orElse("")),
                "offheap-parent: modules inherit url and scm as they are (no /artifactId appended)");

        Set<String> modules = new TreeSet<>(children(parent, "modules", "module"));
        Set<String> known = new TreeSet<>(PUBLISHED);
        known.addAll(UNPUBLISHED);
        known.add(BOM);
        check(modules.equals(known), "the reactor's modules " + modules + " are the known ones " + known);

        for (String module : PUBLISHED) {
            library(module, parent, version);
        }
        bom(version);
        for (String module : UNPUBLISHED) {
            application(module, version);
        }
    }

    /** Central's metadata, in the pom itself or, for a module, inherited from {@code parent}. */
    void metadata(String name, Element pom, Element parent) {
        check(!text(pom, "name").isBlank(), name + ": <name>");
        String description = text(pom, "description");
        check(!description.isBlank() && (parent == null || !description.equals(text(parent, "description"))),
                name + ": a <description> of its own");
        Element source = parent != null && text(pom, "url").isEmpty() ? parent : pom;
        check(text(source, "url").startsWith("https://"), name + ": <url>");
        source = parent != null && child(pom, "licenses").isEmpty() ? parent : pom;
        check(child(source, "licenses").stream().flatMap(l -> elements(l, "license").stream())
                        .anyMatch(l -> !text(l, "name").isBlank() && !text(l, "url").isBlank()),
                name + ": <licenses> with a licence's name and url");
        source = parent != null && child(pom, "developers").isEmpty() ? parent : pom;
        check(child(source, "developers").stream().flatMap(d -> elements(d, "developer").stream())
                        .anyMatch(d -> !text(d, "name").isBlank()),
                name + ": <developers> with a developer's name");
        source = parent != null && child(pom, "scm").isEmpty() ? parent : pom;
        check(child(source, "scm").filter(s -> !text(s, "url").isBlank() && text(s, "connection").startsWith("scm:")
                        && text(s, "developerConnection").startsWith("scm:")).isPresent(),
                name + ": <scm> with url, connection and developerConnection");
    }

    void library(String module, Element parent, String version) throws Exception {
        Path dir = root.resolve(module);
        Element pom = pom(dir.resolve("pom.xml"));
        Element parentRef = child(pom, "parent").orElse(null);
        check(parentRef != null && GROUP.equals(text(parentRef, "groupId")) && "offheap-parent".equals(text(parentRef, "artifactId"))
                        && version.equals(text(parentRef, "version")) && text(pom, "version").isEmpty(),
                module + ": child of offheap-parent " + version + " (group and version inherited)");
        check(module.equals(text(pom, "artifactId")) && "jar".equals(text(pom, "packaging").isEmpty() ? "jar" : text(pom, "packaging")),
                module + ": artifactId " + module + ", packaging jar");
        metadata(module, pom, parent);
        for (String skip : List.of("maven.deploy.skip", "maven.source.skip", "maven.javadoc.skip")) {
            check(!"true".equals(property(pom, skip)), module + ": does not set " + skip);
        }

        Path target = dir.resolve("target");
        String base = module + "-" + version;
        Path jar = target.resolve(base + ".jar");
        check(nonEmpty(jar) && entries(jar).contains("module-info.class"), module + ": " + base + ".jar with its module-info.class");

        Path sourcesJar = target.resolve(base + "-sources.jar");
        Path sources = dir.resolve("src/main/java");
        List<String> javaFiles;
        try (Stream<Path> files = Files.walk(sources)) {
            javaFiles = files.filter(p -> p.toString().endsWith(".java")).map(p -> sources.relativize(p).toString().replace('\\', '/')).sorted().toList();
        }
        Set<String> inSources = nonEmpty(sourcesJar) ? entries(sourcesJar) : Set.of();
        List<String> notInJar = javaFiles.stream().filter(f -> !inSources.contains(f)).toList();
        check(!javaFiles.isEmpty() && notInJar.isEmpty(), module + ": " + base + "-sources.jar with its " + javaFiles.size() + " .java files"
                + (notInJar.isEmpty() ? "" : " (missing: " + String.join(", ", notInJar.subList(0, Math.min(5, notInJar.size()))) + ")"));

        Path javadocJar = target.resolve(base + "-javadoc.jar");
        check(nonEmpty(javadocJar) && entries(javadocJar).contains("index.html"), module + ": " + base + "-javadoc.jar with index.html");

        if (headers) {
            List<String> without = new ArrayList<>();
            try (Stream<Path> files = Files.walk(dir.resolve("src/main"))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    if (!hasHeader(file)) {
                        without.add(root.relativize(file).toString());
                    }
                }
            }
            check(without.isEmpty(), module + ": the Apache licence header on every src/main .java"
                    + (without.isEmpty() ? "" : " (" + without.size() + " without, e.g. " + without.getFirst() + "; tools/license-headers.sh adds it)"));
        }
    }

    void bom(String version) throws Exception {
        Element pom = pom(root.resolve(BOM).resolve("pom.xml"));
        check(GROUP.equals(text(pom, "groupId")) && BOM.equals(text(pom, "artifactId")) && "pom".equals(text(pom, "packaging")),
                BOM + ": " + GROUP + ":" + BOM + ", packaging pom");
        check(version.equals(text(pom, "version")), BOM + ": version " + version + " (the parent's), is " + text(pom, "version"));
        // No parent: an importer would get the parent's dependencyManagement (JUnit, Netty, Jetty...) too.
        check(child(pom, "parent").isEmpty(), BOM + ": no parent");
        metadata(BOM, pom, null);
        List<Element> managed = child(pom, "dependencyManagement").stream()
                .flatMap(m -> child(m, "dependencies").stream()).flatMap(d -> elements(d, "dependency").stream()).toList();
        List<String> artifacts = managed.stream().map(d -> text(d, "artifactId")).sorted().toList();
        check(artifacts.equals(PUBLISHED.stream().sorted().toList()), BOM + ": manages exactly " + PUBLISHED + ", manages " + artifacts);
        check(managed.stream().allMatch(d -> GROUP.equals(text(d, "groupId"))
                        && Set.of("${project.version}", version).contains(text(d, "version"))
                        && text(d, "scope").isEmpty() && text(d, "type").isEmpty()),
                BOM + ": each at group " + GROUP + " and the release's version, jar, no scope");
    }

    void application(String module, String version) throws Exception {
        Element pom = pom(root.resolve(module).resolve("pom.xml"));
        for (String skip : List.of("maven.deploy.skip", "skipNexusStagingDeployMojo", "maven.source.skip", "maven.javadoc.skip")) {
            check("true".equals(property(pom, skip)), module + ": not published, sets " + skip + " to true");
        }
        List<String> extra;
        Path target = root.resolve(module).resolve("target");
        try (Stream<Path> files = Files.exists(target) ? Files.list(target) : Stream.empty()) {
            extra = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith("-sources.jar") || n.endsWith("-javadoc.jar")).sorted().toList();
        }
        check(extra.isEmpty(), module + ": no -sources.jar or -javadoc.jar" + (extra.isEmpty() ? "" : " (found " + extra + ")"));
    }

    static boolean hasHeader(Path file) throws IOException {
        try (Stream<String> lines = Files.lines(file)) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.contains(HEADER)) {
                    return true;
                }
                if (DECLARATION.matcher(line).find()) {
                    return false;
                }
            }
        }
        return false;
    }

    static boolean nonEmpty(Path file) throws IOException {
        return Files.isRegularFile(file) && Files.size(file) > 0;
    }

    static Set<String> entries(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Set<String> names = new TreeSet<>();
            zip.stream().filter(e -> !e.isDirectory() && e.getSize() != 0).map(ZipEntry::getName).forEach(names::add);
            return names;
        }
    }

    static Element pom(Path file) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    }

    static List<Element> elements(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(e.getLocalName())) {
                found.add(e);
            }
        }
        return found;
    }

    static java.util.Optional<Element> child(Element parent, String name) {
        return elements(parent, name).stream().findFirst();
    }

    static String text(Element parent, String name) {
        return child(parent, name).map(e -> e.getTextContent().strip()).orElse("");
    }

    static List<String> children(Element parent, String name, String item) {
        return child(parent, name).stream().flatMap(e -> elements(e, item).stream()).map(e -> e.getTextContent().strip()).toList();
    }

    static String property(Element pom, String name) {
        return child(pom, "properties").map(p -> text(p, name)).orElse("");
    }
}
