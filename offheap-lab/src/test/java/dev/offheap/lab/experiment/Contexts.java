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
