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

package dev.offheap.cli.inspect;

import java.io.IOException;
import java.util.List;

/**
 * What the target's diagnostic commands tell about native memory: where the heap and the code cache lie,
 * NMT's summary when it runs, and glibc's malloc statistics.
 *
 * @param heapRanges the heap's reserved addresses ({@code GC.heap_info}), empty if not printed
 * @param codeRanges the code heaps' addresses ({@code Compiler.codecache}), empty if not printed
 * @param nmt NMT's summary, or null when NMT is off
 * @param vmMap the JVM's labels for its mappings ({@code System.map}), empty without NMT
 * @param malloc glibc's statistics, or null when unavailable
 * @param mallocProblem why {@code malloc} is null, or null
 */
record NativeReports(List<AddressRange> heapRanges, List<AddressRange> codeRanges, NmtSummary nmt, VmMap vmMap,
        MallocInfo malloc, String mallocProblem) {

    /**
     * The JVM's labelled regions: NMT detail's own regions where NMT runs in detail mode (exact, on every JDK
     * since 17), else {@code System.map}'s labels (JDK 22+, 21.0.8+), whose rows are whole mappings; empty on
     * JDK 17 to 21.0.7 with NMT in summary mode.
     */
    private static VmMap labels(DiagnosticCommands commands) throws IOException {
        NmtDetail detail = commands.run("VM.native_memory", "detail").map(NmtDetail::parse).orElse(null);
        if (detail != null) {
            return detail.vmMap();
        }
        return commands.run("System.map").map(VmMap::parse).orElse(VmMap.EMPTY);
    }

    /** {@code gcHeapInfo} and {@code codeCache}: the outputs of {@code GC.heap_info} and {@code Compiler.codecache}. */
    static NativeReports read(DiagnosticCommands commands, String gcHeapInfo, String codeCache, boolean nmtEnabled)
            throws IOException {
        List<AddressRange> heap = AddressRange.span(gcHeapInfo);
        List<AddressRange> code = AddressRange.findAll(codeCache);
        NmtSummary nmt = nmtEnabled ? commands.run("VM.native_memory", "summary").map(NmtSummary::parse).orElse(null) : null;
        VmMap vmMap = nmt == null ? VmMap.EMPTY : labels(commands);
        String heapInfo = commands.run("System.native_heap_info").orElse(null);
        if (heapInfo == null) {
            return new NativeReports(heap, code, nmt, vmMap, null,
                    "the target has no System.native_heap_info command (it needs JDK 18+ on Linux)");
        }
        String xml = MallocInfo.extractXml(heapInfo);
        if (xml == null) {
            return new NativeReports(heap, code, nmt, vmMap, null, "System.native_heap_info said: " + heapInfo.strip());
        }
        try {
            return new NativeReports(heap, code, nmt, vmMap, MallocInfo.parse(xml), null);
        } catch (IllegalArgumentException e) {
            return new NativeReports(heap, code, nmt, vmMap, null, e.getMessage());
        }
    }
}
