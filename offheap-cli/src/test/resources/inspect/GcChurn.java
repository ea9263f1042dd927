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

import java.util.ArrayList;
import java.util.List;

/** A heap that has been through young and full collections: G1's side tables are in use. Ends on stdin's end. */
public class GcChurn {
    public static void main(String[] args) throws Exception {
        List<byte[]> kept = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            kept.add(new byte[1024]);
            if (kept.size() > 100_000) {
                kept.subList(0, 50_000).clear();
            }
        }
        System.gc();
        System.out.println("READY");
        System.out.flush();
        System.in.read();
    }
}
