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

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The idle targets of offheap-bench/recorder-cost.sh's footprint runs: {@code typical} first does what any service
 * does at start (lambdas, streams, string concatenation: the JDK spins its first hidden classes), {@code bare}
 * nothing; then each prints "ready" and sleeps.
 */
public class RecorderFootprintTarget {
    public static void main(String[] args) throws Exception {
        if (args[0].equals("typical")) {
            List<String> items = IntStream.range(0, 1000).mapToObj(i -> "item-" + i + "/" + args.length)
                    .collect(Collectors.toList());
            Map<Integer, Long> byLength = items.stream().collect(Collectors.groupingBy(String::length, Collectors.counting()));
            Runnable ready = () -> System.out.println("ready " + byLength.size());
            ready.run();
        } else {
            System.out.println("ready");
        }
        Thread.sleep(Long.MAX_VALUE);
    }
}
