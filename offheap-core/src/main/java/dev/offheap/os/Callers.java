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

package dev.offheap.os;

import java.util.Set;

/**
 * Keeps the raw OS access of this package to offheap's own pools. On the module path the package is not
 * exported, so nothing else can link to it; on the class path every public class is reachable, and a public
 * method that unmaps an address would let any code free memory the JVM or a pool still uses. So each entry
 * point that hands out or frees raw memory first asks {@link #check(String)}: its caller must be a class of
 * {@code dev.offheap.buffer}, {@code dev.offheap.store} or this package, loaded by the same class loader.
 * It walks the stack (about a microsecond), which is why only entry points that make a system call anyway
 * (a pool's growth, a chunk's mapping) are checked, never a lease or an element access.
 */
final class Callers {
    private static final Set<String> ALLOWED = Set.of("dev.offheap.buffer", "dev.offheap.store", "dev.offheap.os");
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private Callers() {}

    /**
     * Throws unless the caller of the entry point (the first frame of another class than the entry point's)
     * is one of offheap's pools or this package.
     *
     * @param entry the entry point, named in the exception
     * @throws SecurityException naming the caller when it is not allowed
     */
    static void check(String entry) {
        Class<?> caller = WALKER.walk(frames -> {
            var classes = frames.map(StackWalker.StackFrame::getDeclaringClass).dropWhile(c -> c == Callers.class)
                    .iterator();
            Class<?> entryClass = classes.next();
            while (classes.hasNext()) {
                Class<?> c = classes.next();
                if (c != entryClass) {
                    return c;
                }
            }
            return entryClass;
        });
        if (!allowed(caller)) {
            throw new SecurityException(entry + " is internal to offheap (package dev.offheap.os, not exported):"
                    + " called from " + caller.getName() + "; use BufferPool or ChunkPool instead");
        }
    }

    static boolean allowed(Class<?> caller) {
        return ALLOWED.contains(caller.getPackageName()) && caller.getClassLoader() == Callers.class.getClassLoader()
                && caller.getModule() == Callers.class.getModule();
    }
}
