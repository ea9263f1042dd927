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
