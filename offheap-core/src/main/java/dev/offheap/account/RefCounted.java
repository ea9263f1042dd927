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

package dev.offheap.account;

/**
 * Memory handed out with a reference count: a {@code BufferLease} of the buffer pool and a {@code TypedArray}
 * of the store. The one rule for both:
 *
 * <ul>
 *   <li>it starts with one reference; {@link #retain()} adds one, {@link #release()} drops one, and the
 *       release that drops the last gives the memory back at once;</li>
 *   <li>{@link #close()} is {@link #release()}, for try-with-resources;</li>
 *   <li>a release or close after the last one throws {@link IllegalStateException} (a double release is a
 *       bug, and memory may already belong to someone else), and so does every other method of the handle
 *       that reaches its memory; {@link #refCount()} and what only describes the handle ({@code toString},
 *       an array's {@code elementType}) still answer.</li>
 * </ul>
 *
 * <p>Pools and budgets, which own memory rather than hold a share of it, follow the other half of the rule:
 * their {@code close()} may be called again and then does nothing.
 */
public interface RefCounted extends AutoCloseable {

    /**
     * Adds a reference: one more {@link #release()} is then needed to give the memory back.
     *
     * @return this object
     * @throws IllegalStateException if the last reference was already released
     */
    RefCounted retain();

    /**
     * Drops a reference.
     *
     * @return true if that was the last reference and this call gave the memory back
     * @throws IllegalStateException if the last reference was already released (a double release)
     */
    boolean release();

    /**
     * The number of references held now.
     *
     * @return the count, 0 once the last reference was released
     */
    int refCount();

    /**
     * The same as one {@link #release()}.
     *
     * @throws IllegalStateException if the last reference was already released (a double release)
     */
    @Override
    void close();
}
