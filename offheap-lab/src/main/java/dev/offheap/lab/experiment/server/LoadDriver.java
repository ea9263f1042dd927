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

package dev.offheap.lab.experiment.server;

import java.io.IOException;

/**
 * What drives one configuration's server in the shootout: its warm-up run, then its measured run, through the
 * same client; closed once the configuration is measured.
 */
interface LoadDriver extends AutoCloseable {
    /** Drives the server for {@code seconds} and returns what the client measured. */
    LoadResult run(int seconds) throws IOException, InterruptedException;

    /** Ends what the client holds; nothing for a client that holds nothing between runs. */
    @Override
    default void close() throws InterruptedException {}
}
