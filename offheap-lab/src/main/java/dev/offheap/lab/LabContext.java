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

package dev.offheap.lab;

import java.nio.file.Path;
import java.util.List;

/**
 * What an experiment runs with.
 *
 * @param scale      how long to run: {@link Scale#TINY} in tests (seconds for everything), {@link Scale#QUICK}
 *                   (the default: the whole lab within 3 minutes on 2 cores), {@link Scale#FULL}
 * @param workDir    a directory of the lab run for files (deleted by the runner afterwards)
 * @param progress   where to report progress
 * @param javaCommand the java executable running the lab, for child JVMs
 * @param classPath  the class path of the running lab, for child JVMs
 */
public record LabContext(Scale scale, Path workDir, Progress progress, String javaCommand, List<String> classPath) {

    public enum Scale { TINY, QUICK, FULL }

    /** Progress of the running experiment. */
    public interface Progress {
        /** {@code fraction} in [0, 1] of this experiment done; {@code what} is the current step. */
        void update(String what, double fraction);
    }
}
