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

package dev.offheap.accuracy.truth;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes {@code summary.md} for a results directory: an overview per target, the worst error per category per
 * JDK and NMT mode, and every target's table.
 *
 * <pre>java -cp inspect-accuracy.jar dev.offheap.accuracy.truth.Summary RESULTS_DIR [--seconds N] [--strict]</pre>
 * With {@code --strict} it exits with 1 unless every target met every goal.
 */
public final class Summary {
    private static final List<String> ORDER = List.of("netty", "lucene", "h2", "inflater", "inflater-jemalloc", "zstd");

    private Summary() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        List<String> rest = List.of(args).subList(1, args.length);
        String seconds = rest.contains("--seconds") ? rest.get(rest.indexOf("--seconds") + 1) : null;
        boolean strict = rest.contains("--strict");
        List<Map<String, Object>> results = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        try (Stream<Path> targets = Files.list(dir)) {
            for (Path t : targets.filter(Files::isDirectory).sorted().toList()) {
                Path json = t.resolve("result.json");
                if (Files.exists(json)) {
                    results.add(Json.map(Json.parse(Files.readString(json))));
                } else {
                    missing.add(t.getFileName().toString());
                }
            }
        }
        results.sort(Comparator.comparing((Map<String, Object> r) -> ORDER.indexOf(String.valueOf(r.get("name"))))
                .thenComparing(r -> Json.number(r.get("jdkFeature"), 0)).thenComparing(r -> String.valueOf(r.get("nmt"))));
        StringBuilder md = new StringBuilder();
        md.append("## Results: ").append(dir.getFileName()).append("\n\n");
        Path machine = dir.resolve("machine.txt");
        if (Files.exists(machine)) {
            for (String line : Files.readAllLines(machine)) {
                md.append("- ").append(line).append('\n');
            }
        }
        if (seconds != null) {
            md.append("- run took ").append(seconds).append(" s\n");
        }
        md.append('\n');
        overview(md, results);
        if (!missing.isEmpty()) {
            md.append("No result (the target did not start or the comparison failed): ").append(String.join(", ", missing))
                    .append(".\n\n");
        }
        worst(md, results);
        crossChecks(md, results);
        md.append("### Per target\n\n");
        for (Map<String, Object> r : results) {
            md.append(Report.target(r).replaceFirst("^### ", "#### "));
        }
        Files.writeString(dir.resolve("summary.md"), md.toString());
        System.out.print(md.substring(0, md.indexOf("### Per target")));
        boolean allPass = missing.isEmpty() && !results.isEmpty()
                && results.stream().allMatch(r -> Boolean.TRUE.equals(Json.map(r.get("verdict")).get("pass")));
        if (strict && !allPass) {
            System.exit(1);
        }
    }

    private static void overview(StringBuilder md, List<Map<String, Object>> results) {
        md.append("### Overview\n\n| target | JDK | NMT | RSS | categories within 5 % or 2 MiB | failing | unexplained"
                + " (goal) | verdict |\n|---|---|---|---:|---:|---|---:|---|\n");
        for (Map<String, Object> r : results) {
            Map<String, Object> v = Json.map(r.get("verdict"));
            md.append("| ").append(r.get("name")).append(" | ").append(r.get("jdkVersion")).append(" | ").append(r.get("nmt"))
                    .append(" | ");
            if (v.containsKey("error")) {
                md.append("— | — | — | — | inspect failed |\n");
                continue;
            }
            md.append(Report.mib(Json.map(Json.list(r.get("rows")).get(0)).get("inspect"))).append(" | ")
                    .append(v.get("categoriesPassed")).append(" of ").append(v.get("categoriesJudged")).append(" | ")
                    .append(String.join(", ", Json.list(v.get("categoriesFailed")).stream().map(String::valueOf).toList()))
                    .append(" | ").append(Report.percent(v.get("unexplainedShare"))).append(" (< ")
                    .append(Report.percent(v.get("unexplainedLimit"))).append(") | ")
                    .append(Boolean.TRUE.equals(v.get("pass")) ? "pass" : "**fail**").append(" |\n");
        }
        md.append('\n');
    }

    /**
     * How the truth's sources agree where two of them measure the same thing (second truth sample): in the NMT
     * runs, the stack-pointer blocks, VM.metaspace's nodes and -Xlog:pagesize's tables against NMT's regions
     * (resident pages of each); glibc's mapped chunks and arenas found in memory against malloc_info's counts
     * (JDK 25); jemalloc's own stats.resident against the truth's otherAllocator; VmRSS against pagemap.
     */
    private static void crossChecks(StringBuilder md, List<Map<String, Object>> results) {
        md.append("### Truth cross-checks\n\nWhere two sources measure the same thing (the second truth sample;"
                + " MiB resident unless counted): the stack-pointer blocks, `VM.metaspace vslist` nodes and"
                + " `-Xlog:pagesize` tables against NMT's regions (NMT runs); chunks and arenas found in memory against"
                + " `malloc_info` (JDK 25; JDK 17 has no `System.native_heap_info`); jemalloc's `stats.resident` against"
                + " the truth; VmRSS against pagemap.\n\n| target | JDK | NMT | stacks: NMT / SP | metaspace: NMT /"
                + " vslist | gc: NMT / pagesize | mapped chunks: walked / malloc_info | arenas: found / malloc_info |"
                + " jemalloc: truth / stats.resident | RSS: pagemap / VmRSS |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (Map<String, Object> r : results) {
            Map<String, Object> after = Json.map(r.get("truthAfter"));
            Map<String, Object> e = Json.map(after.get("extra"));
            Map<String, Object> nmt = Json.map(e.get("nmtPresentByCategory"));
            Map<String, Object> info = Json.map(e.get("mallocInfo"));
            Map<String, Object> w = Json.map(after.get("workload"));
            boolean jemalloc = Boolean.TRUE.equals(after.get("jemalloc"));
            md.append("| ").append(r.get("name")).append(" | ").append(r.get("jdkFeature")).append(" | ").append(r.get("nmt"))
                    .append(" | ").append(pair(nmt.get("threadStacks"), e.get("liveStackBlocksPresent")))
                    .append(" | ").append(pair(nmt.get("metaspace"), e.get("metaspaceNodesPresent")))
                    .append(" | ").append(pair(nmt.get("gc"), e.get("gcSideTablesPresent")))
                    .append(" | ").append(jemalloc ? "—" : e.get("mallocMmappedChunks") + " × " + Report.mib(e.get("mallocMmappedChunkBytes"))
                            + " / " + (info.isEmpty() ? "—" : info.get("mmapCount") + " × " + Report.mib(info.get("mmapBytes"))))
                    .append(" | ").append(jemalloc ? "—" : (Json.number(e.get("mallocArenaHeaps"), 0) + 1) + " / "
                            + (info.isEmpty() ? "—" : String.valueOf(info.get("arenas"))))
                    .append(" | ").append(jemalloc ? pair(Json.map(Json.map(after.get("categories")).get("otherAllocator")).get("bytes"),
                            w.get("jemalloc.resident")) : "—")
                    .append(" | ").append(pair(after.get("pagemapRss"), after.get("vmRss"))).append(" |\n");
        }
        md.append("\nArenas found count the main arena (`[heap]`) as one. Without NMT the first column of the NMT pairs"
                + " is empty: there the second source is the truth.\n\n");
    }

    private static String pair(Object a, Object b) {
        return (a == null ? "—" : Report.mib(a).replace(" MiB", "")) + " / " + (b == null ? "—" : Report.mib(b).replace(" MiB", ""));
    }

    /** The largest error (by bytes) per category in each JDK and NMT mode, with the target it came from. */
    private static void worst(StringBuilder md, List<Map<String, Object>> results) {
        Map<String, List<Map<String, Object>>> modes = new LinkedHashMap<>();
        for (Map<String, Object> r : results) {
            String mode = "JDK " + r.get("jdkFeature") + ", NMT " + r.get("nmt");
            modes.computeIfAbsent(mode, k -> new ArrayList<>()).add(r);
        }
        List<String> keys = new ArrayList<>(modes.keySet());
        keys.sort(Comparator.naturalOrder());
        md.append("### Worst error per category\n\nThe largest |inspect − truth| among the targets of each JDK and NMT mode"
                + " (✗: outside 5 % or 2 MiB; unexplained: the largest share of RSS against the goal).\n\n| category |");
        keys.forEach(k -> md.append(' ').append(k).append(" |"));
        md.append("\n|---|");
        keys.forEach(k -> md.append("---|"));
        md.append('\n');
        List<String> categories = new ArrayList<>(List.of("rss"));
        categories.addAll(Compare.PARTS);
        for (String category : categories) {
            StringBuilder line = new StringBuilder("| ").append(category).append(" |");
            boolean any = false;
            for (String k : keys) {
                Map<String, Object> worst = null;
                String target = null;
                double worstValue = -1;
                for (Map<String, Object> r : modes.get(k)) {
                    for (Object o : Json.list(r.get("rows"))) {
                        Map<String, Object> row = Json.map(o);
                        if (!category.equals(row.get("category"))) {
                            continue;
                        }
                        double value = category.equals("unexplained")
                                ? (row.get("share") instanceof Number n ? n.doubleValue() : 0)
                                : row.get("error") instanceof Number n ? Math.abs(n.doubleValue()) : -1;
                        if (value > worstValue) {
                            worstValue = value;
                            worst = row;
                            target = String.valueOf(r.get("name"));
                        }
                    }
                }
                if (worst == null) {
                    line.append(" — |");
                    continue;
                }
                any = true;
                String mark = Boolean.FALSE.equals(worst.get("pass")) ? " ✗" : "";
                if (category.equals("unexplained")) {
                    line.append(' ').append(Report.percent(worst.get("share"))).append(" of RSS, ").append(target)
                            .append(mark).append(" |");
                } else if (worst.containsKey("error")) {
                    line.append(' ').append(Report.signedMib(worst.get("error"))).append(" (")
                            .append(Report.signedPercent(worst.get("errorShare"))).append("), ").append(target).append(mark)
                            .append(" |");
                } else {
                    line.append(" bound only").append(mark).append(" |");
                }
            }
            if (any) {
                md.append(line).append('\n');
            }
        }
        md.append('\n');
    }
}
