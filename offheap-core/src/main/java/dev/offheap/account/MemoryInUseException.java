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
 * Memory could not be given back because an I/O operation or a native call is still using it through one of
 * its views: a {@code ByteBuffer} being read into or written from a channel, or a {@code MemorySegment}
 * passed to a downcall. The JDK refuses to end a view while such an operation holds it, and offheap never
 * frees or reuses memory whose views could not end.
 *
 * <p>What stays behind depends on what was asked, and the message says it:
 *
 * <ul>
 *   <li>a lease's or an array's last {@code release()}: nothing changed, the handle keeps its reference and
 *       its memory; release it again once the operation has ended;</li>
 *   <li>a pool's or a mapped file's {@code close()}: everything else was given back; the held memory stays
 *       mapped and charged to its budget, counted as quarantined in the pool's statistics, until
 *       {@code close()} is called again after the operation has ended (its {@code trim()} retries it too).</li>
 * </ul>
 *
 * <p>It is an {@link IllegalStateException}, which the JDK throws in the same case, so code written
 * against the JDK's exception still catches it.
 */
public final class MemoryInUseException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Bytes that stay mapped and charged because of the operations in progress. */
    private final long heldBytes;

    /**
     * Makes the exception; its message is {@code what}, the holder in a user's words, then {@code outcome}:
     * <em>cannot release buffer of 65536 bytes from pool 'io' now: an I/O operation or native call still uses
     * one of its views (...); nothing changed: ...</em>
     *
     * @param what      what could not be given back: {@code cannot release <the lease> now}
     * @param heldBytes bytes that stay mapped and charged
     * @param outcome   what stays behind and what to do
     * @param cause     the JDK's exception ({@code Session is acquired by N clients}), or null
     */
    public MemoryInUseException(String what, long heldBytes, String outcome, Throwable cause) {
        super(what + ": an I/O operation or native call still uses " + Bytes.human(heldBytes) + " of it through a"
                + " view (a ByteBuffer in a channel's read or write, or a MemorySegment passed to a downcall); "
                + outcome, cause);
        this.heldBytes = heldBytes;
    }

    /**
     * The bytes that stay mapped and charged until the operations holding them end and the call is repeated.
     *
     * @return the bytes held
     */
    public long heldBytes() {
        return heldBytes;
    }
}
