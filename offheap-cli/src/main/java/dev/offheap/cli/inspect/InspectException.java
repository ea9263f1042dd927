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

package dev.offheap.cli.inspect;

/**
 * Why an inspection could not be done, in words for the user, with the exit code of the command.
 * Never printed with its stack trace.
 */
final class InspectException extends RuntimeException {
    static final int FAILED = 1;
    static final int NO_SUCH_PROCESS = 3;
    static final int NOT_INSPECTABLE = 4;
    static final int ATTACH_FAILED = 5;
    static final int TARGET_EXITED = 6;

    private final int exitCode;

    InspectException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    static InspectException exited(long pid) {
        return new InspectException(TARGET_EXITED, "process " + pid + " exited while being inspected");
    }

    int exitCode() {
        return exitCode;
    }
}
