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

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A thread whose first acquire passed the pool's open check just before {@code close()} registers its thread
 * cache while the close runs, possibly after the close detached every cache. Such a cache must not stay: a
 * closed pool counts no thread cache, and no cache may keep slots of it (and through them the whole pool) in
 * a thread-local for the rest of the thread's life. {@link PoolCloseRaceProperties} meets this race now and
 * then; here it is made to happen, on the registry itself.
 */
class ThreadCacheRegisteredDuringCloseTest {

    @Test
    void aCacheRegisteredAfterTheCachesWereDetachedLeavesItsPlace() throws Exception {
        ThreadCaches caches = new ThreadCaches(new int[] {4, 4}, 2, 0, 0);
        ThreadCache[] early = new ThreadCache[1];
        Thread before = Thread.ofPlatform().start(() -> early[0] = caches.current());
        before.join(10_000);
        assertThat(before.isAlive()).isFalse();
        assertThat(caches.registeredCount()).as("a cache registered while the pool is open").isOne();

        caches.detachAll(); // close()
        assertThat(caches.registeredCount()).isZero();

        ThreadCache[] late = new ThreadCache[1];
        Thread after = Thread.ofPlatform().start(() -> late[0] = caches.current()); // its first acquire
        after.join(10_000);
        assertThat(after.isAlive()).isFalse();
        assertThat(late[0].registered).as("the late thread still gets a cache to work with").isTrue();
        assertThat(caches.registeredCount()).as("caches registered after close() detached them all").isZero();
    }
}
