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

package dev.offheap.recorder;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * A report on a signal ({@code kill -USR2 PID}), through {@code sun.misc.Signal} where the JDK has it
 * ({@code jdk.unsupported}); where it does not, or the JVM already uses the signal, the recorder runs without it
 * and says so.
 */
final class SignalReports {
    private SignalReports() {}

    /** @return null when installed, otherwise why not */
    static String install(String name, Runnable report) {
        if (name.equals("NONE")) {
            return null;
        }
        // Reflection: javac warns on every direct use of sun.misc, and a warning fails this build.
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object h = Proxy.newProxyInstance(SignalReports.class.getClassLoader(), new Class<?>[] {handler},
                    (proxy, method, args) -> {
                        if (method.getName().equals("handle")) {
                            report.run();
                            return null;
                        }
                        return method.getName().equals("toString") ? "offheap recorder's report"
                                : method.getName().equals("hashCode") ? System.identityHashCode(proxy)
                                : Boolean.valueOf(proxy == args[0]);
                    });
            signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance(name), h);
            return null;
        } catch (ClassNotFoundException | LinkageError e) {
            return "this JDK has no sun.misc.Signal (module jdk.unsupported)";
        } catch (InvocationTargetException e) {
            return String.valueOf(e.getCause().getMessage());
        } catch (ReflectiveOperationException | RuntimeException e) {
            return e.toString();
        }
    }
}
