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

import com.sun.tools.attach.VirtualMachine;
import com.sun.tools.attach.VirtualMachineDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The JVMs of this user that can be attached to, as the Attach API finds them (through their
 * {@code hsperfdata} files: a JVM started with {@code -XX:-UsePerfData} is missing here, but can still be
 * inspected by PID).
 */
final class JvmListing {
    private JvmListing() {}

    /**
     * One JVM.
     *
     * @param pid its process
     * @param rss its resident bytes, -1 if unknown
     * @param name its main class or jar and arguments, as the Attach API shows them
     */
    record Jvm(long pid, long rss, String name) {}

    static List<Jvm> list() {
        long self = ProcessHandle.current().pid();
        List<Jvm> jvms = new ArrayList<>();
        for (VirtualMachineDescriptor d : VirtualMachine.list()) {
            long pid;
            try {
                pid = Long.parseLong(d.id());
            } catch (NumberFormatException e) {
                continue;
            }
            if (pid != self && TargetProcess.isAlive(pid)) {
                jvms.add(new Jvm(pid, TargetProcess.rss(pid), d.displayName()));
            }
        }
        jvms.sort(Comparator.comparingLong(Jvm::pid));
        return jvms;
    }
}
