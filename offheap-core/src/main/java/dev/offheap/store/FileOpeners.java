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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The files the {@link MappedArray}s of this JVM have open, by the file's identity (device and inode: every hard
 * or symbolic link to a file is the same file): one {@code READ_WRITE} opener at a time, or any number of
 * {@code READ_ONLY} and {@code SHARED} ones (a {@code SHARED} file never grows: its openers agree on its
 * length). Two {@code READ_WRITE} writers of one file would each keep their own length, and the one that grows
 * last rewrites the header over the other's: elements lost without a word.
 */
final class FileOpeners {
    /** Guarded by itself. Holds no array: a closed array's entry is gone, an open one's names only its path. */
    private static final Map<Object, List<Opener>> OPEN = new HashMap<>();

    private FileOpeners() {}

    /** One array's hold on a file, from its open to the moment its file is really closed. */
    static final class Opener {
        private final Object key;
        private final Path path;
        private final MappedArray.Mode mode;
        private final String thread = Thread.currentThread().getName();
        /** Only its stack is used, and only in a refusal's message. */
        private final Throwable openedAt = new Throwable();
        private boolean released;

        private Opener(Object key, Path path, MappedArray.Mode mode) {
            this.key = key;
            this.path = path;
            this.mode = mode;
        }

        /** Lets the file be opened again; once the file is closed. A second call does nothing. */
        void release() {
            synchronized (OPEN) {
                if (released) {
                    return;
                }
                released = true;
                List<Opener> openers = OPEN.get(key);
                openers.remove(this);
                if (openers.isEmpty()) {
                    OPEN.remove(key);
                }
            }
        }

        /** Where this opener opened the file, as the cause of a refusal. */
        private Throwable where() {
            Throwable where = new Throwable("where " + path + " was opened " + mode + " (thread '" + thread + "')");
            where.setStackTrace(openedAt.getStackTrace());
            return where;
        }
    }

    /**
     * Registers an opener of the file {@code key} names.
     *
     * @throws FileInUseException if another opener in this JVM has the file: any one when {@code mode} is
     *         {@code READ_WRITE}, a {@code READ_WRITE} one when it is {@code READ_ONLY} or {@code SHARED}
     */
    static Opener register(Object key, Path path, MappedArray.Mode mode) throws FileInUseException {
        synchronized (OPEN) {
            List<Opener> openers = OPEN.computeIfAbsent(key, k -> new ArrayList<>(1));
            for (Opener other : openers) {
                if (mode == MappedArray.Mode.READ_WRITE || other.mode == MappedArray.Mode.READ_WRITE) {
                    throw new FileInUseException(path, "cannot open it " + mode + ": a MappedArray of this JVM has it"
                            + " open " + other.mode + (other.path.equals(path) ? "" : " as " + other.path)
                            + " (opened on thread '" + other.thread + "', where the cause shows); a file is open"
                            + " READ_WRITE by one MappedArray at a time, or READ_ONLY"
                            + (mode == MappedArray.Mode.SHARED || other.mode == MappedArray.Mode.SHARED
                                    ? " and SHARED" : "") + " by any number: close that one first", false,
                            other.where());
                }
            }
            Opener opener = new Opener(key, path, mode);
            openers.add(opener);
            return opener;
        }
    }
}
