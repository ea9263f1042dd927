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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Markdown for one measured target: the table, why a category falls short, the drift, the command. */
final class Report {
    private Report() {}

    static String mib(Object bytes) {
        if (!(bytes instanceof Number n)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.1f MiB", n.doubleValue() / (1024 * 1024));
    }

    static String signedMib(Object bytes) {
        if (!(bytes instanceof Number n)) {
            return "—";
        }
        return String.format(Locale.ROOT, "%+.1f MiB", n.doubleValue() / (1024 * 1024));
    }

    static String percent(Object share) {
        return share instanceof Number n ? String.format(Locale.ROOT, "%.1f %%", 100 * n.doubleValue()) : "—";
    }

    static String signedPercent(Object share) {
        return share instanceof Number n ? String.format(Locale.ROOT, "%+.0f %%", 100 * n.doubleValue()) : "—";
    }

    static String title(Map<String, Object> result) {
        return result.get("name") + " · JDK " + result.get("jdkVersion") + " · NMT " + result.get("nmt");
    }

    static String target(Map<String, Object> result) {
        StringBuilder md = new StringBuilder();
        md.append("### ").append(title(result)).append("\n\n");
        Map<String, Object> verdict = Json.map(result.get("verdict"));
        Map<String, Object> before = Json.map(result.get("truthBefore"));
        Map<String, Object> after = Json.map(result.get("truthAfter"));
        if (verdict.containsKey("error")) {
            md.append("**inspect failed:** ").append(verdict.get("error")).append("\n\n");
            command(md, result);
            return md.toString();
        }
        md.append(String.format(Locale.ROOT, "Verdict: **%s** · categories within 5 %% or 2 MiB: %d of %d · unexplained"
                        + " %s of RSS (goal < %.0f %%): %s%n%n",
                Boolean.TRUE.equals(verdict.get("pass")) ? "pass" : "fail", Json.number(verdict.get("categoriesPassed"), 0),
                Json.number(verdict.get("categoriesJudged"), 0), percent(verdict.get("unexplainedShare")),
                100 * ((Number) verdict.get("unexplainedLimit")).doubleValue(),
                Boolean.TRUE.equals(verdict.get("unexplainedPass")) ? "pass" : "**fail**"));
        md.append("| category | inspect | truth | error | pass | truth source |\n|---|---:|---:|---:|:---:|---|\n");
        List<Map<String, Object>> rows = new ArrayList<>();
        Json.list(result.get("rows")).forEach(o -> rows.add(Json.map(o)));
        for (Map<String, Object> r : rows) {
            String key = String.valueOf(r.get("category"));
            String inspect = mib(r.get("inspect")) + (Boolean.TRUE.equals(r.get("inspectAbsent")) ? " (no part)" : "");
            String truth;
            String error;
            if (r.containsKey("truth")) {
                truth = mib(r.get("truth"));
                if (!java.util.Objects.equals(r.get("truthBefore"), r.get("truthAfter"))) {
                    truth += " (" + mib(r.get("truthBefore")) + " → " + mib(r.get("truthAfter")) + ")";
                }
                error = signedMib(r.get("error")) + (r.get("errorShare") == null ? "" : " (" + signedPercent(r.get("errorShare")) + ")");
            } else if (r.containsKey("upper")) {
                truth = "≤ " + mib(r.get("upper")) + " (bound only)";
                error = "—";
            } else {
                truth = "—";
                error = "—";
            }
            String pass = r.get("pass") == null ? "n/a" : Boolean.TRUE.equals(r.get("pass")) ? "yes" : "**no**";
            if (Boolean.TRUE.equals(r.get("noisy"))) {
                pass = "yes, within RSS's movement (" + mib(r.get("noise")) + ")";
            }
            if (key.equals("rss") && r.containsKey("upper")) {
                truth += "; " + mib(r.get("lower")) + " to " + mib(r.get("upper")) + " while inspect ran";
            }
            if (key.equals("unexplained")) {
                pass += " (" + percent(r.get("share")) + " of RSS, goal < " + percent(r.get("shareLimit")) + ")";
            }
            md.append("| ").append(key).append(" | ").append(inspect).append(" | ").append(truth).append(" | ")
                    .append(error).append(" | ").append(pass).append(" | ").append(r.get("truthSource")).append(" |\n");
        }
        md.append('\n');
        why(md, result, rows);
        checks(md, result, before, after);
        command(md, result);
        return md.toString();
    }

    /** For each category that falls short: what inspect based it on, and what the truth is made of. */
    private static void why(StringBuilder md, Map<String, Object> result, List<Map<String, Object>> rows) {
        Map<String, Object> after = Json.map(result.get("truthAfter"));
        Map<String, Object> extra = Json.map(after.get("extra"));
        List<String> lines = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (!Boolean.FALSE.equals(r.get("pass"))) {
                continue;
            }
            String key = String.valueOf(r.get("category"));
            StringBuilder line = new StringBuilder("- **").append(key).append("**: ");
            if (Boolean.TRUE.equals(r.get("inspectAbsent"))) {
                line.append("inspect's JSON has no `").append(key).append("` part. ");
            } else if (r.containsKey("inspectSource")) {
                line.append("inspect: ").append(r.get("inspectSource"));
                if (r.get("inspectClaimed") instanceof Number claimed && claimed.longValue() != Json.number(r.get("inspect"), 0)) {
                    line.append(", claimed ").append(mib(claimed)).append(" but capped to ")
                            .append(mib(r.get("inspect"))).append(" by what its native pool had left");
                }
                if (r.containsKey("inspectExact")) {
                    line.append(Boolean.TRUE.equals(r.get("inspectExact")) ? " (exact)" : " (an estimate)");
                }
                if (r.get("inspectBound") instanceof Number bound) {
                    line.append(", bound ").append(mib(bound));
                }
                line.append(". ");
            }
            switch (key) {
                case "malloc" -> {
                    line.append("Truth: main arena ").append(mib(extra.get("mallocMainArena"))).append(", ")
                            .append(extra.get("mallocArenaHeaps")).append(" arena heaps ")
                            .append(mib(extra.get("mallocArenaHeapsResident"))).append(" resident, ")
                            .append(extra.get("mallocMmappedChunks")).append(" chunks mapped on their own (")
                            .append(mib(extra.get("mallocMmappedChunkBytes"))).append(", ")
                            .append(mib(extra.get("mallocMmappedChunksResident"))).append(" resident)");
                    Map<String, Object> info = Json.map(extra.get("mallocInfo"));
                    if (!info.isEmpty()) {
                        line.append("; malloc_info: system ").append(mib(info.get("systemCurrent"))).append(", free ")
                                .append(mib(info.get("free"))).append(", mmap ").append(info.get("mmapCount"))
                                .append(" chunks ").append(mib(info.get("mmapBytes")));
                    }
                    Map<String, Object> im = Json.map(Json.map(Json.map(result.get("inspect")).get("details")).get("malloc"));
                    if (!im.isEmpty()) {
                        line.append("; inspect's malloc details: inUse ").append(mib(im.get("inUse"))).append(", free ")
                                .append(mib(im.get("free"))).append(", top chunks ").append(mib(im.containsKey("topChunks") ? im.get("topChunks") : im.get("releasable")))
                                .append(", system ").append(mib(im.get("system")));
                        if (im.containsKey("unavailable")) {
                            line.append("; inspect: ").append(im.get("unavailable"));
                        }
                    }
                    line.append('.');
                }
                case "threadStacks" -> line.append("Truth: ").append(extra.get("threads")).append(" threads, ")
                        .append(extra.get("liveStackBlocks")).append(" live stack blocks (")
                        .append(mib(extra.get("liveStackBlocksPresent"))).append(" resident; ")
                        .append(extra.get("liveStackBlocksFoundByDescriptor")).append(" more found by their descriptor, ")
                        .append(mib(extra.get("liveStacksFoundByDescriptor"))).append("), ")
                        .append(extra.get("cachedStackBlocks")).append(" cached blocks of ended threads (")
                        .append(mib(extra.get("cachedStacksOfEndedThreads"))).append(")")
                        .append(nmtPresent(extra, "threadStacks")).append('.');
                case "gc" -> line.append("Truth: -Xlog:pagesize side tables ").append(mib(extra.get("gcSideTablesPresent")))
                        .append(" resident").append(nmtPresent(extra, "gc")).append(nmtSummary(extra, "GC")).append('.');
                case "metaspace" -> line.append("Truth: VM.metaspace nodes ").append(mib(extra.get("metaspaceNodesPresent")))
                        .append(" resident").append(nmtPresent(extra, "metaspace")).append('.');
                case "otherJvm" -> line.append("Truth").append(nmtPresent(extra, "otherJvm")).append('.');
                case "codeCache" -> line.append("Truth").append(nmtPresent(extra, "codeCache")).append('.');
                case "otherAllocator" -> {
                    line.append("Truth: what no other source claims");
                    Map<String, Object> w = Json.map(after.get("workload"));
                    if (w.containsKey("jemalloc.resident")) {
                        line.append("; jemalloc's own stats.resident ").append(mib(w.get("jemalloc.resident")))
                                .append(", active ").append(mib(w.get("jemalloc.active")));
                    }
                    line.append('.');
                }
                case "mapped", "programFiles" -> line.append("Data files: ").append(extra.get("dataFiles")).append('.');
                case "unexplained" -> {
                    line.append("Truth's own residual ").append(mib(r.get("truth"))).append("; largest residual mappings: ");
                    List<String> top = new ArrayList<>();
                    for (Object o : Json.list(extra.get("residualMappings")).stream().limit(4).toList()) {
                        Map<String, Object> m = Json.map(o);
                        top.add(m.get("range") + " " + m.get("perms") + " " + m.get("path") + " " + mib(m.get("resident"))
                                + " of " + mib(m.get("size")));
                    }
                    line.append(top.isEmpty() ? "none" : String.join("; ", top)).append('.');
                }
                default -> { }
            }
            lines.add(line.toString());
        }
        if (!lines.isEmpty()) {
            md.append("Where it falls short:\n\n");
            lines.forEach(l -> md.append(l).append('\n'));
            md.append('\n');
        }
    }

    private static String nmtPresent(Map<String, Object> extra, String category) {
        Map<String, Object> p = Json.map(extra.get("nmtPresentByCategory"));
        return p.containsKey(category) ? "; NMT's regions hold " + mib(p.get(category)) + " resident" : "";
    }

    private static String nmtSummary(Map<String, Object> extra, String nmtCategory) {
        Map<String, Object> s = Json.map(Json.map(extra.get("nmtSummary")).get(nmtCategory));
        return s.isEmpty() ? "" : " (NMT committed " + mib(s.get("committed")) + ", of it mmap " + mib(s.get("mmapCommitted"))
                + ", malloc " + mib(s.get("malloc")) + ")";
    }

    private static void checks(StringBuilder md, Map<String, Object> result, Map<String, Object> before,
            Map<String, Object> after) {
        md.append("Checks: smaps Rss ").append(mib(after.get("smapsRss"))).append(", pagemap ")
                .append(mib(after.get("pagemapRss"))).append(", VmRSS ").append(mib(after.get("vmRss")))
                .append("; truth samples ").append(String.format(Locale.ROOT, "%.1f s",
                        (Json.number(after.get("epochMillis"), 0) - Json.number(before.get("epochMillis"), 0)) / 1000.0))
                .append(" apart (inspect took ").append(String.format(Locale.ROOT, "%.1f s",
                        Json.number(result.get("inspectMillis"), 0) / 1000.0)).append("), RSS drift ")
                .append(signedMib(Json.number(after.get("smapsRss"), 0) - Json.number(before.get("smapsRss"), 0)));
        Map<String, Object> pools = Json.map(after.get("bufferPools"));
        Map<String, Object> direct = Json.map(pools.get("direct"));
        Map<String, Object> mapped = Json.map(pools.get("mapped"));
        Object inspectDirect = Json.map(result.get("inspect")).get("direct");
        md.append("; BufferPoolMXBean direct ").append(mib(direct.get("memoryUsed"))).append(" in ")
                .append(direct.get("count")).append(" buffers (inspect's `direct`: ").append(mib(inspectDirect))
                .append("), mapped ").append(mib(mapped.get("capacity"))).append(" in ").append(mapped.get("count"))
                .append(" buffers");
        Map<String, Object> w = Json.map(after.get("workload"));
        if (!w.isEmpty()) {
            md.append("; workload: ");
            List<String> f = new ArrayList<>();
            w.forEach((k, v) -> f.add(k + "=" + (k.toLowerCase(Locale.ROOT).contains("bytes") || k.contains("Memory")
                    || k.startsWith("jemalloc.") ? mib(v) : String.valueOf(v))));
            md.append(String.join(", ", f));
        }
        md.append(".\n");
        List<Object> notes = new ArrayList<>(Json.list(before.get("notes")));
        Json.list(after.get("notes")).stream().filter(n -> !notes.contains(n)).forEach(notes::add);
        for (Object n : notes) {
            md.append("Note: ").append(n).append(".\n");
        }
        List<Object> findings = Json.list(Json.map(result.get("inspect")).get("findings"));
        if (!findings.isEmpty()) {
            md.append("\nInspect's findings:\n\n");
            // schema 3: {id, severity, text}; older CLIs (--offheap DIR) wrote strings
            for (Object f : findings) {
                String text = f instanceof java.util.Map<?, ?> m
                        ? "[" + m.get("severity") + "] " + m.get("text") + " (" + m.get("id") + ")" : String.valueOf(f);
                md.append("- ").append(text.replace("\n", " ")).append('\n');
            }
        }
        md.append('\n');
    }

    private static void command(StringBuilder md, Map<String, Object> result) {
        if (result.containsKey("command")) {
            md.append("Target: `").append(result.get("command")).append("`\n\n");
        }
    }
}
