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


/**
 * A memory recorder that runs inside a JVM: every few seconds it samples the process's resident memory by owner
 * from {@code /proc/self}, the JVM's own figures and the memory cgroup, keeps a bounded history, and writes that
 * history with its chart when the container's working set crosses set shares of its limit, on a signal, on demand
 * and at exit. Loaded as a Java agent ({@code -javaagent:offheap-recorder.jar=dir=/var/log/offheap}, or into a
 * running JVM by {@code offheap record PID}) or started as a library ({@link dev.offheap.recorder.MemoryRecorder}).
 * It depends on the JDK alone and runs on JDK 17 and newer.
 */
module dev.offheap.recorder {
    requires java.management;
    // HotSpotDiagnosticMXBean: the JVM's ceilings (MaxDirectMemorySize, ReservedCodeCacheSize, ...)
    requires jdk.management;
    requires jdk.jfr;

    exports dev.offheap.recorder;
}
