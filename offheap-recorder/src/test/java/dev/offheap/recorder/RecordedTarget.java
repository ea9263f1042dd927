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

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM the live tests record, run as a child: {@code wait} prints {@code ready} and waits for a line (or the
 * end) on its standard input, then exits normally; {@code grow MIB_PER_STEP MILLIS} prints {@code ready} and keeps
 * allocating and touching direct buffers of that many MiB every MILLIS ms, forever (until a limit kills it).
 */
public final class RecordedTarget {
    private RecordedTarget() {}

    public static void main(String[] args) throws Exception {
        System.out.println("ready " + ProcessHandle.current().pid());
        System.out.flush();
        if (args[0].equals("wait")) {
            new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            return;
        }
        int mib = Integer.parseInt(args[1]);
        long millis = Long.parseLong(args[2]);
        List<ByteBuffer> kept = new ArrayList<>();
        while (true) {
            ByteBuffer b = ByteBuffer.allocateDirect(mib << 20);
            for (int i = 0; i < b.capacity(); i += 4096) {
                b.put(i, (byte) 1);
            }
            kept.add(b);
            Thread.sleep(millis);
        }
    }
}
