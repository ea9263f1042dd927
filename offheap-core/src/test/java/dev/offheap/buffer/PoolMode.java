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

package dev.offheap.buffer;

/**
 * The ways a pool can serve its leases, for tests that run one scenario in each: plain handles, checked
 * mode (views in an arena of their own), every lease sampled for use-after-release detection, every lease
 * tracked for leak detection. Each mode turns the samplers it does not test off.
 */
enum PoolMode {
    DEFAULT(false, 0, 0),
    CHECKED(true, 0, 0),
    USE_AFTER_RELEASE_SAMPLED(false, 1, 0),
    LEAK_TRACKED(false, 0, 1);

    private final boolean checked;
    private final int useAfterReleaseSampling;
    private final int leakSampling;

    PoolMode(boolean checked, int useAfterReleaseSampling, int leakSampling) {
        this.checked = checked;
        this.useAfterReleaseSampling = useAfterReleaseSampling;
        this.leakSampling = leakSampling;
    }

    /** A builder in this mode; JMX off, since these tests build hundreds of pools. */
    BufferPool.Builder builder(String name) {
        return BufferPool.builder().name(name).checked(checked).useAfterReleaseSampling(useAfterReleaseSampling)
                .leakSampling(leakSampling).jmx(false);
    }
}
