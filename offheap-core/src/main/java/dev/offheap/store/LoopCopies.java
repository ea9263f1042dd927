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

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.function.Function;

/**
 * Copies of one loop class, one per class of the function it calls: each a hidden class defined from the same
 * bytes, so each has a profile of its own. A loop that calls the functions of many callers through one call
 * site sees many classes there; HotSpot then calls the function per element instead of inlining it, and
 * {@code apply} ran 10-20 times slower once the JVM had seen three functions (BENCHMARKS.md, issue 30). In a
 * copy of its own, the call site sees one class and is inlined. A copy is made once per function class (a
 * lambda expression is one class, whatever it captures) and lives as long as that class.
 *
 * @param <F> the function's interface
 * @param <L> the loop's type
 */
final class LoopCopies<F, L> {
    private final Function<F, L> plain;
    private final ClassValue<MethodHandle> copies;

    /**
     * @param template a loop class of this package with a constructor taking the function
     * @param function the function's interface
     * @param plain    the template's constructor, used where a copy cannot be made
     */
    LoopCopies(Class<? extends L> template, Class<F> function, Function<F, L> plain) {
        this.plain = plain;
        byte[] bytes = bytesOf(template);
        this.copies = new ClassValue<>() {
            @Override
            protected MethodHandle computeValue(Class<?> functionClass) {
                if (bytes == null) {
                    return null;
                }
                try {
                    MethodHandles.Lookup copy = MethodHandles.lookup().defineHiddenClass(bytes, true);
                    return copy.findConstructor(copy.lookupClass(), MethodType.methodType(void.class, function))
                            .asType(MethodType.methodType(Object.class, function));
                } catch (ReflectiveOperationException | LinkageError e) {
                    return null; // the plain loop then: slower where functions vary, never wrong
                }
            }
        };
    }

    /** A loop calling {@code f}, in the copy of {@code f}'s class. */
    @SuppressWarnings("unchecked")
    L loopFor(F f) {
        Objects.requireNonNull(f, "function");
        MethodHandle constructor = copies.get(f.getClass());
        if (constructor == null) {
            return plain.apply(f);
        }
        try {
            return (L) constructor.invoke(f);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot make a loop for " + f, e);
        }
    }

    /** The template's class file, or null where it cannot be read (then every loop is the plain one). */
    private static byte[] bytesOf(Class<?> template) {
        try (InputStream in = template.getResourceAsStream(template.getSimpleName() + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }
}
