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
 * Command-line front end of offheap.
 */
module dev.offheap.cli {
    requires dev.offheap.core;
    // offheap record (the recorder's jar, loaded into a target) and offheap report (a record's chart)
    requires dev.offheap.recorder;
    requires info.picocli;
    // offheap inspect: the Attach API, JMX over the target's local management agent, malloc_info's XML.
    requires jdk.attach;
    requires java.management;
    requires java.management.rmi;
    requires java.xml;
    // offheap inspect --native-callers: async-profiler's recording is JFR
    requires jdk.jfr;

    // picocli instantiates the command classes and injects their fields reflectively.
    opens dev.offheap.cli to info.picocli;
    opens dev.offheap.cli.inspect to info.picocli;
}
