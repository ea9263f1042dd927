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

package dev.offheap.recorder;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The recorder's sample as a JFR event, committed at every sample while a recording has it enabled (it is by
 * default; nothing is done when no recording runs).
 */
@Name("dev.offheap.ProcessMemory")
@Label("Process Memory by Owner")
@Category({"offheap", "Memory"})
@Description("Resident memory of the process by owner, as offheap's recorder samples it from /proc/self and the JVM")
@StackTrace(false)
final class ProcessMemoryEvent extends Event {
    @Label("RSS") @DataAmount long rss;
    @Label("Heap") @DataAmount long heap;
    @Label("Metaspace") @DataAmount long metaspace;
    @Label("Code Cache") @DataAmount long codeCache;
    @Label("Direct Buffers") @DataAmount long direct;
    @Label("Other Native") @Description("Anonymous RSS less the parts above: threads, GC, malloc") @DataAmount long nativeOther;
    @Label("Files") @DataAmount long files;
    @Label("Shared Memory") @DataAmount long sharedMemory;
    @Label("Container Working Set") @DataAmount long containerWorkingSet;
    @Label("Container Limit") @DataAmount long containerLimit;

    static void emit(MemorySample s) {
        ProcessMemoryEvent e = new ProcessMemoryEvent();
        if (!e.isEnabled()) {
            return;
        }
        e.rss = s.rss();
        for (MemorySample.Part p : s.parts()) {
            switch (p.key()) {
                case "heap" -> e.heap = p.bytes();
                case "metaspace" -> e.metaspace = p.bytes();
                case "codeCache" -> e.codeCache = p.bytes();
                case "direct" -> e.direct = p.bytes();
                case "native" -> e.nativeOther = p.bytes();
                case "files" -> e.files = p.bytes();
                case "sharedMemory" -> e.sharedMemory = p.bytes();
                default -> { }
            }
        }
        e.containerWorkingSet = s.containerWorkingSet();
        e.containerLimit = s.containerLimit();
        e.commit();
    }
}
