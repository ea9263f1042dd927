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

package dev.offheap.store;

/** What a new array holds. */
public enum Contents {
    /** Zeros, like a new Java array: nothing of a previous array shows through a reused chunk. */
    ZEROS,
    /**
     * Whatever the reused chunks held before (their own process's data, or zeros): for callers that
     * overwrite every element before reading it, and want to skip clearing.
     */
    UNINITIALIZED
}
