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

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code get} and {@code set} of every element type, and every method of the array they call on the contiguous
 * path, fit HotSpot's {@code MaxInlineSize} (35 bytes of bytecode): the JIT then inlines them at every call
 * site, hot in its profile or not, and in C1's code too. An 80-byte {@code get} was inlined only where C2's
 * profile called the site hot; a loop compiled from any other profile (after an uncommon trap, in an OSR
 * compile, at a site first seen cold) called {@code get} once per element and ran 5-6x slower than the same
 * loop over a flat {@code MemorySegment} (BENCHMARKS.md, "The store in plain programs").
 */
class AccessorsInlineTest {
    /** HotSpot's default {@code -XX:MaxInlineSize}. */
    private static final int MAX_INLINE_SIZE = 35;

    @ParameterizedTest
    @ValueSource(classes = {ByteArray.class, ShortArray.class, IntArray.class, LongArray.class, FloatArray.class, DoubleArray.class})
    void getAndSetAndTheirContiguousPathFitMaxInlineSize(Class<? extends TypedArray> type) throws IOException {
        ClassModel model = classModel(type);
        List<String> checked = new ArrayList<>();
        for (String accessor : List.of("get", "set")) {
            MethodModel method = publicMethod(model, accessor);
            checkFits(model, method, checked);
        }
        assertThat(checked).as("methods checked in %s", type.getSimpleName()).hasSizeGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(classes = {IntArray.class, LongArray.class})
    void theAtomicElementOperationsAndTheirContiguousPathFitMaxInlineSize(Class<? extends TypedArray> type)
            throws IOException {
        ClassModel model = classModel(type);
        List<String> checked = new ArrayList<>();
        for (String accessor : List.of("getAcquire", "setRelease", "getVolatile", "setVolatile", "compareAndSet",
                "getAndAdd")) {
            checkFits(model, publicMethod(model, accessor), checked);
        }
        assertThat(checked).as("methods checked in %s", type.getSimpleName()).hasSize(12);
    }

    /** Checks {@code method} and, recursively, the methods of the same class it calls, but the scattered path. */
    private static void checkFits(ClassModel model, MethodModel method, List<String> checked) {
        String name = method.methodName().stringValue();
        if (checked.contains(name) || name.endsWith("Scattered")) {
            return;
        }
        checked.add(name);
        CodeModel code = method.code().orElseThrow();
        int size = codeLength(code);
        assertThat(size).as("bytecode size of %s.%s", model.thisClass().asInternalName(), name)
                .isLessThanOrEqualTo(MAX_INLINE_SIZE);
        for (var element : code) {
            if (element instanceof InvokeInstruction invoke
                    && invoke.owner().asInternalName().equals(model.thisClass().asInternalName())) {
                model.methods().stream()
                        .filter(m -> m.methodName().equalsString(invoke.name().stringValue())
                                && m.methodType().equalsString(invoke.type().stringValue()))
                        .forEach(callee -> checkFits(model, callee, checked));
            }
        }
    }

    private static int codeLength(CodeModel code) {
        return ((java.lang.classfile.attribute.CodeAttribute) code).codeLength();
    }

    private static MethodModel publicMethod(ClassModel model, String name) {
        return model.methods().stream()
                .filter(m -> m.methodName().equalsString(name) && (m.flags().flagsMask() & ClassFile.ACC_PUBLIC) != 0)
                .findFirst().orElseThrow(() -> new AssertionError("no public " + name + " in " + model.thisClass()));
    }

    private static ClassModel classModel(Class<?> type) throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            return ClassFile.of().parse(in.readAllBytes());
        }
    }
}
